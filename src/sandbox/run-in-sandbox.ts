/**
 * The one way the runner runs a program in isolation (docs/design/judge-protocol.md,
 * docs/design/grader-protocol.md, docs/design/isolation.md): our own CLI's subcommand (the built-in
 * judge or grader) or a user's argv, given its files in a fresh sandbox folder (or a workspace of
 * the caller's), the run's model behind the proxy when it may use one, within its limits. It must
 * write `resultFile`, which counts only when the program exited 0 in time and `accept` takes it;
 * otherwise it runs again, up to `attempts`, the model's cache bypassed. Success and failure come
 * back in one shape: a program's failure is data, never an exception.
 *
 * A coding agent (docs/design/agent-runs.md) comes through here too: `agent` puts the caller's
 * workspace at its fixed path and the caller's proxy in front of its model traffic, and
 * `readOutcome` takes the program's stream, whatever its exit, as the result.
 *
 * The judge also starts its program before its files exist (startInSandbox), so Node's start
 * overlaps generation; the first attempt of runInSandbox then uses it.
 */
import { isProgramEntry } from '../experiment/program-entry.js';
import type { Isolation, JudgeEntry } from '../experiment/schema.js';
import type { ModelClient } from '../providers/types.js';
import { type PlannedProgram, planProgram } from './plan-program.js';
import { type Acceptance, type AttemptsResult, runProgramAttempts } from './run-attempts.js';
import {
  type SandboxedProgramOutcome,
  type SandboxedProgramRun,
  type StartedProgram,
  startSandboxedProgram,
} from './run-sandboxed-program.js';
import type { SandboxFile } from './sandbox.js';
import type { SandboxAgent } from './sandbox-agent.js';
import type { SandboxLimits } from './sandbox-limits.js';

/**
 * What runs, from the experiment's entry: a model entry starts our own CLI with `builtinArgs`
 * (e.g. `['judge', 'outputs', '--rubric', 'rubric.md']`) and its settings on stdin, speaking
 * HTTP to the proxy; a program entry runs its `command`, relative paths anchored at `commandCwd`.
 */
export interface SandboxProgram {
  entry: JudgeEntry;
  builtinArgs: readonly string[];
}

/** The model a program may use and its limits: what the judge's and the grader's runners take besides their own inputs. */
export interface SandboxRunOptions {
  /** The run's client for this role; required for a model entry, optional for a program (then no proxy). */
  client?: ModelClient;
  /** Per attempt; a program entry's `timeout_s` wins. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Path of the built CLI (dist/cli/main.js); default: found from the package root. */
  cliEntry?: string;
  /** Attempts in all. */
  attempts?: number;
  /** Where relative paths in a `command` resolve (the project root); default process.cwd(). */
  commandCwd?: string;
  /** The runner's environment (default process.env); only the allow-list reaches the program. */
  env?: NodeJS.ProcessEnv;
  tmpRoot?: string;
  /** docs/design/isolation.md; default `process`. The run passes what chooseIsolation chose. */
  isolation?: Isolation;
  /** What the program may use under `os` (sandbox-limits.ts); default DEFAULT_LIMITS. */
  limits?: SandboxLimits;
  /** Set over the allow-listed environment: data for the program, never a secret (a workspace check's case vars). */
  extraEnv?: Readonly<Record<string, string>>;
}

/** Enough to start the program: everything but its files and how its result is judged. */
export interface SandboxStart extends SandboxRunOptions {
  program: SandboxProgram;
  /** The file the program must write, relative to its working folder (none with `readOutcome`). */
  resultFile?: string;
  timeoutMs: number;
  /**
   * A host folder (absolute) the program works in, for a program that changes files (a coding
   * agent): its cwd instead of a fresh folder, `files` written into it, under `os` the one host
   * folder it can write; HOME stays the sandbox's own, and the folder stays the caller's, never
   * removed. It is not restored between attempts: a program that cannot start from what an
   * unusable attempt left wants `attempts: 1`.
   */
  workspace?: string;
  /** A coding agent in `workspace` (sandbox-agent.ts): never a claude/codex judge's own login or network. */
  agent?: SandboxAgent;
}

export interface SandboxRequest<T> extends SandboxStart {
  /** What the program finds in its working folder, a fresh one for every attempt. */
  files: readonly SandboxFile[];
  /** Checks the result file's JSON; a problem makes the attempt unusable. One of `accept` and `readOutcome`. */
  accept?: (json: unknown) => Acceptance<T>;
  attempts: number;
  /** `judge` or `grader`, for messages. */
  who: string;
  /** Every model call a new sample, counted from `sampleBase`, never the cache's (model-proxy.ts). */
  fresh?: { sampleBase: number };
  /** The program startInSandbox started, for the first attempt; used or cancelled by the time this returns. */
  started?: StartedProgram;
  /** The program's outcome is the result (run-attempts.ts): an agent's stream, whatever its exit. */
  readOutcome?: (outcome: SandboxedProgramOutcome) => T;
}

/** `raw`: the result file as the program wrote it; `providerError`: a model failure that stops the run, or an abort. */
export type SandboxResult<T> = AttemptsResult<T>;

function planFor(start: SandboxStart): PlannedProgram {
  return planProgram(start.program.entry, {
    builtinArgs: start.program.builtinArgs,
    timeoutMs: start.timeoutMs,
    ...(start.cliEntry === undefined ? {} : { cliEntry: start.cliEntry }),
    ...(start.commandCwd === undefined ? {} : { commandCwd: start.commandCwd }),
    ...(start.client === undefined ? {} : { endpointLimit: start.client.concurrency }),
  });
}

function toSandboxedRun(
  start: SandboxStart,
  program: PlannedProgram,
  files: readonly SandboxFile[],
): SandboxedProgramRun {
  return {
    files,
    argv: program.argv,
    ...(program.input === undefined ? {} : { input: program.input }),
    ...(start.client === undefined ? {} : { client: start.client }),
    // An agent is never a claude/codex judge with its own login and the host network.
    cliAgent: program.cliAgent && start.agent === undefined,
    ...(start.resultFile === undefined ? {} : { resultFile: start.resultFile }),
    timeoutMs: program.timeoutMs,
    ...(start.signal === undefined ? {} : { signal: start.signal }),
    ...(start.env === undefined ? {} : { env: start.env }),
    ...(start.tmpRoot === undefined ? {} : { tmpRoot: start.tmpRoot }),
    ...(start.isolation === undefined ? {} : { isolation: start.isolation }),
    ...(start.commandCwd === undefined ? {} : { projectDir: start.commandCwd }),
    ...(start.workspace === undefined ? {} : { workspace: start.workspace }),
    ...(start.limits === undefined ? {} : { limits: start.limits }),
    ...(start.agent === undefined ? {} : { agent: start.agent }),
    ...(start.extraEnv === undefined ? {} : { extraEnv: start.extraEnv }),
  };
}

export async function runInSandbox<T>(request: SandboxRequest<T>): Promise<SandboxResult<T>> {
  const { started, fresh } = request;
  try {
    const run = toSandboxedRun(request, planFor(request), request.files);
    return await runProgramAttempts({
      // A program started early has a proxy that may serve the cache: a fresh run starts its own.
      ...(started === undefined || fresh !== undefined ? {} : { started }),
      who: request.who,
      attempts: request.attempts,
      run: fresh === undefined ? run : { ...run, fresh },
      ...(request.accept === undefined ? {} : { accept: request.accept }),
      ...(request.readOutcome === undefined ? {} : { readOutcome: request.readOutcome }),
    });
  } finally {
    // A no-op once the first attempt has used it.
    await started?.cancel();
  }
}

/**
 * Starts our own CLI before its files exist (see startSandboxedProgram), so its start-up is off
 * the caller's critical path. Undefined for a user's program, which never starts before its
 * files are there, and for a built-in one without the run's client.
 */
export async function startInSandbox(start: SandboxStart): Promise<StartedProgram | undefined> {
  if (isProgramEntry(start.program.entry) || start.client === undefined) return undefined;
  // Its files and its stdin come with StartedProgram.finish; our own CLI is no CLI agent.
  const { files: _f, input: _i, cliAgent: _c, ...run } = toSandboxedRun(start, planFor(start), []);
  return startSandboxedProgram(run);
}
