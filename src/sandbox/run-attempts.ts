/**
 * The retry discipline shared by the judge and the grader: run the program in a fresh
 * sandbox, accept its result file only when it exited 0 in time and the file passes the
 * caller's check, otherwise try again, up to `attempts`, with the model's cache bypassed (and
 * refreshed). Credit, auth and abort failures behind it are final at once, and so is a
 * claude/codex program that says its login was refused or its plan is spent (cli-agent-failure.ts).
 */
import type { ProviderError } from '../providers/types.js';
import { secretValues } from '../providers/redact.js';
import {
  describeProcessFailure,
  excerptOf,
  findFinalProviderError,
  parseJsonText,
} from './attempt-failure.js';
import { cliAgentFailure } from './cli-agent-failure.js';
import { DEFAULT_LIMITS, limitNote } from './sandbox-limits.js';
import {
  runSandboxedProgram,
  type SandboxedProgramOutcome,
  type SandboxedProgramRun,
  type StartedProgram,
} from './run-sandboxed-program.js';

export type Acceptance<T> = { ok: true; value: T } | { ok: false; problem: string };

export interface AttemptsOptions<T> {
  run: SandboxedProgramRun;
  /** The program already started for the first attempt (see startSandboxedProgram). */
  started?: StartedProgram;
  attempts: number;
  /** `judge` or `grader`, for messages. */
  who: string;
  /** One of `accept` and `readOutcome`. */
  accept?: (json: unknown) => Acceptance<T>;
  /**
   * Instead of the result file and `accept`: the program's outcome is its result whatever its
   * exit (an agent's stream, its timeout included); only an abort stops it.
   */
  readOutcome?: (outcome: SandboxedProgramOutcome) => T;
}

export type AttemptsResult<T> =
  | { ok: true; value: T; raw: unknown; attempts: number }
  | { ok: false; message: string; attempts: number; providerError?: ProviderError };

/** Why a claude/codex program failed, in its own words, when it exited non-zero and said. */
function cliAgentSaid(outcome: SandboxedProgramOutcome, run: SandboxedProgramRun): ProviderError | undefined {
  const { exitCode } = outcome.process;
  if (run.cliAgent !== true || exitCode === null || exitCode === 0) return undefined;
  return cliAgentFailure(run.argv, outcome.process.stdout, secretValues(run.env ?? process.env));
}

function examine<T>(
  outcome: SandboxedProgramOutcome,
  options: AttemptsOptions<T>,
  said: ProviderError | undefined,
): Acceptance<{ value: T; raw: unknown }> {
  const { who, run } = options;
  if (outcome.overLimit !== undefined) return { ok: false, problem: `the ${who} ${outcome.overLimit}` };
  const excerpt = said?.message ?? excerptOf(outcome.process, secretValues(run.env ?? process.env));
  const failed = describeProcessFailure(outcome.process, who, run.timeoutMs, excerpt);
  if (failed !== undefined) {
    const note =
      run.isolation === 'os' ? limitNote(outcome.process, run.limits ?? DEFAULT_LIMITS) : undefined;
    return { ok: false, problem: note === undefined ? failed : `${failed} (${note})` };
  }
  const { result } = outcome;
  if (result.kind === 'missing')
    return { ok: false, problem: `the ${who} wrote no ${run.resultFile ?? 'result file'}` };
  if (result.kind === 'refused')
    return { ok: false, problem: `the ${who}'s ${run.resultFile} was not read: it ${result.why}` };
  const json = parseJsonText(result.text);
  if (!json.ok) return { ok: false, problem: `${run.resultFile} is not valid JSON` };
  if (options.accept === undefined) return { ok: false, problem: `nothing reads ${run.resultFile}` };
  const accepted = options.accept(json.value);
  if (!accepted.ok) return { ok: false, problem: `${run.resultFile} is invalid: ${accepted.problem}` };
  return { ok: true, value: { value: accepted.value, raw: json.value } };
}

export async function runProgramAttempts<T>(options: AttemptsOptions<T>): Promise<AttemptsResult<T>> {
  const { run } = options;
  let started = options.started;
  try {
    return await runAttempts(options, async (attempt) => {
      const warm = started;
      started = undefined;
      // A later attempt must not be served the model replies that made the last one unusable.
      if (attempt > 1) return runSandboxedProgram({ ...run, refresh: true });
      if (warm === undefined) return runSandboxedProgram(run);
      if (run.input === undefined) {
        await warm.cancel();
        return runSandboxedProgram(run);
      }
      return warm.finish(run.files, run.input);
    });
  } finally {
    await started?.cancel();
  }
}

async function runAttempts<T>(
  options: AttemptsOptions<T>,
  runOnce: (attempt: number) => Promise<SandboxedProgramOutcome>,
): Promise<AttemptsResult<T>> {
  const { run, attempts, who } = options;
  let problem = `the ${who} was not run`;
  for (let attempt = 1; attempt <= attempts; attempt += 1) {
    if (run.signal?.aborted)
      return { ok: false, message: `the ${who} was interrupted`, attempts: attempt - 1 };
    const outcome = await runOnce(attempt);
    if (run.signal?.aborted) return { ok: false, message: `the ${who} was interrupted`, attempts: attempt };
    if (options.readOutcome !== undefined) {
      return { ok: true, value: options.readOutcome(outcome), raw: undefined, attempts: attempt };
    }
    const final = findFinalProviderError(outcome.proxyFailures);
    if (final !== undefined) {
      const message = `the ${who}'s model call failed: ${final.message}`;
      return { ok: false, message, attempts: attempt, providerError: final };
    }
    const said = cliAgentSaid(outcome, run);
    // A CLI that refuses its login, or whose plan is spent, would refuse it again.
    if (said?.stopsRun === true) {
      const message = `the ${who} exited with code ${outcome.process.exitCode}: ${said.message}`;
      return { ok: false, message, attempts: attempt, providerError: said };
    }
    const examined = examine(outcome, options, said);
    if (examined.ok) return { ok: true, ...examined.value, attempts: attempt };
    problem = examined.problem;
  }
  return {
    ok: false,
    message: `${problem} (after ${attempts} attempt${attempts === 1 ? '' : 's'})`,
    attempts,
  };
}
