/**
 * `autoresearch eval` without the CLI: evaluate the experiment's current prompt once over
 * the loop's cases (train and holdout), or over the sealed test cases alone under
 * `split: 'test'` (docs/design/paired-acceptance.md), and record it as a run of kind `eval`
 * (docs/design/run-records.md):
 *
 *   run_started → iteration_started 0 → phases → candidate_evaluated 0/0
 *     → iteration_finished (baseline | error) + spend → run_stopped
 *
 * with iterations/0000/candidates/0/, decision.json, best.md and results.tsv beside the
 * journal, all under the run lock. A judge or grader error is an `error` evaluation (no
 * score); Ctrl-C journals it as interrupted; auth and credit failures stop it and throw.
 */
import { agentPart } from '../agent/agent-runner.js';
import { AutoresearchError } from '../errors.js';
import { roleModels } from '../experiment/judge-panel.js';
import type { Role } from '../experiment/roles.js';
import type { JudgeConfig } from '../experiment/schema.js';
import { loopCases, testCases } from '../experiment/loop-cases.js';
import type { Experiment } from '../experiment/types.js';
import { hashPrompt } from '../prompt-hash.js';
import type { EventListener, RunRecorder } from '../loop/run-recorder.js';
import { spendSince } from '../loop/spend.js';
import { emptyTotals } from '../providers/ledger.js';
import { createModelPool, type ModelPool, type ModelPoolOptions } from '../providers/model-pool.js';
import { ProviderError } from '../providers/types.js';
import type { SpendRole } from '../run/events.js';
import { agentCacheDir, candidatePaths, runPaths } from '../run/paths.js';
import type { ProcessIdentity } from '../run/process-identity.js';
import { writeBest, writeDecision } from '../run/records.js';
import { buildEvalReport, costFromLedger } from './build-eval-report.js';
import { timeGenerations } from './case-timing.js';
import type { CandidateScores } from '../evaluate/candidate-result.js';
import { candidateSeed, evaluate } from '../evaluate/evaluate.js';
import type { CandidateOutcome } from '../evaluate/evaluate-types.js';
import type { EvalReport, ScopeName } from './eval-report.js';
import { iterationFinished } from '../loop/finish-iteration.js';
import { openEvalRun } from './open-eval-run.js';
import { createSandboxedReview } from '../evaluate/sandboxed-review.js';
import { EVAL_ROLES, keyVariables } from './eval-roles.js';

export interface RunEvalInput {
  /** Loaded, with overrides applied and keys checked. */
  experiment: Experiment;
  overrides: Record<string, unknown>;
  runsDir: string;
  projectRoot: string;
  /** `test` evaluates the sealed test cases and no other; any other split (the default), the loop's cases. */
  split?: ScopeName;
}

export interface RunEvalDeps {
  env: NodeJS.ProcessEnv;
  now: () => Date;
  random: () => number;
  /** Ctrl-C: aborts calls in flight; the evaluation is journaled as interrupted. */
  signal: AbortSignal;
  identity: ProcessIdentity;
  /** The built CLI, for the built-in judge and grader programs (default: found from the package). */
  cliEntry?: string;
  /** Every journaled event, as it is written (the terminal's progress). */
  onEvent?: EventListener;
  createPool?: (options: ModelPoolOptions) => ModelPool;
}

export type EvalRunResult =
  | { status: 'done'; runId: string; runDir: string; report: EvalReport }
  | { status: 'interrupted'; runId: string; runDir: string; message: string };

const ITERATION = 0;
const CANDIDATE = 0;

/** The roles an evaluation calls that the simulated provider serves: results must say so. */
export function simulatedEvalRoles(experiment: Experiment): SpendRole[] {
  const simulated = roleModels(experiment.models, EVAL_ROLES).filter((m) => m.entry.provider === 'sim');
  return EVAL_ROLES.filter((role) => simulated.some((m) => m.role === role));
}

export async function runEval(input: RunEvalInput, deps: RunEvalDeps): Promise<EvalRunResult> {
  const simulatedRoles = simulatedEvalRoles(input.experiment);
  const cases = input.split === 'test' ? testCases(input.experiment) : loopCases(input.experiment);
  const experiment: Experiment = { ...input.experiment, cases };
  const opened = await openEvalRun(
    { ...input, simulatedRoles },
    {
      now: deps.now,
      random: deps.random,
      identity: deps.identity,
      ...(deps.onEvent ? { onEvent: deps.onEvent } : {}),
    },
  );
  const { runId, runDir, recorder } = opened;
  const models: Partial<Record<Role, JudgeConfig>> = {};
  for (const role of EVAL_ROLES) if (experiment.models[role]) models[role] = experiment.models[role];
  let pool: ModelPool | undefined;
  try {
    pool = (deps.createPool ?? createModelPool)({
      models,
      concurrency: experiment.config.concurrency,
      cacheDir: runPaths(runDir).cache,
      env: deps.env,
      signal: deps.signal,
      cwd: experiment.dir,
      onWarning: (message) => void recorder.emit({ type: 'warning', message }).catch(() => undefined),
    });
    const timed = timeGenerations(pool, experiment.prompt, experiment.shape, experiment.cases);
    const startedAt = deps.now();
    const elapsed = () => Math.max(0, (deps.now().getTime() - startedAt.getTime()) / 1000);
    await recorder.emit({ type: 'iteration_started', iteration: ITERATION, strategy: 'focused' });
    let outcome: CandidateOutcome | undefined;
    let failure: unknown;
    try {
      ({ outcome } = await evaluate(
        {
          experiment,
          prompt: experiment.prompt,
          cases: experiment.cases,
          samples: experiment.config.search.samples,
          sampleBase: 0,
          seed: candidateSeed(experiment, ITERATION, CANDIDATE),
          paths: candidatePaths(runDir, ITERATION, CANDIDATE),
          journal: { append: (event) => recorder.emit(event), iteration: ITERATION, candidate: CANDIDATE },
        },
        {
          pool: timed.pool,
          signal: deps.signal,
          env: deps.env,
          ...createSandboxedReview(experiment, timed.pool, {
            env: deps.env,
            ...(deps.cliEntry ? { cliEntry: deps.cliEntry } : {}),
          }),
          ...agentPart(experiment),
          agentCacheDir: agentCacheDir(runDir),
        },
      ));
    } catch (error) {
      failure = error;
    }
    // A judge killed by Ctrl-C reports a judge error; the user's interrupt is what happened.
    if (outcome === undefined || (deps.signal.aborted && !outcome.ok)) {
      const stop = classifyStop(failure, deps.signal, experiment);
      // The journal is best effort here: the failure itself is what the user must see.
      await journalEnd(recorder, pool, runDir, {
        status: stop ? 'interrupted' : 'error',
        ...(stop ? {} : { errorKind: 'internal_error' as const }),
        message: stop?.message ?? `the evaluation failed: ${messageOf(failure)}`,
        seconds: elapsed(),
        reason: stop?.reason ?? 'errors',
      }).catch(() => undefined);
      if (stop?.reason === 'interrupted')
        return { status: 'interrupted', runId, runDir, message: stop.message };
      throw stop?.error ?? failure;
    }
    const seconds = elapsed();
    const message = outcome.ok ? describeScores(outcome.scores) : `${outcome.errorKind}: ${outcome.message}`;
    await journalEnd(recorder, pool, runDir, {
      status: outcome.ok ? 'baseline' : 'error',
      message,
      ...(outcome.ok ? {} : { errorKind: outcome.errorKind }),
      seconds,
      reason: outcome.ok ? 'completed' : 'errors',
      outcome,
      prompt: experiment.prompt,
    });
    await writeBest(runDir, experiment.prompt);
    const report = buildEvalReport(outcome, {
      runId,
      runDir,
      experiment: experiment.name,
      simulatedRoles,
      samples: experiment.config.search.samples,
      seconds,
      cost: costFromLedger(pool.ledger.snapshot()),
      caseSeconds: timed.seconds(),
    });
    return { status: 'done', runId, runDir, report };
  } finally {
    await pool?.close().catch(() => undefined);
    await opened.lock.release().catch(() => undefined);
  }
}

interface EndOfEval {
  status: 'baseline' | 'error' | 'interrupted';
  message: string;
  seconds: number;
  reason: 'completed' | 'errors' | 'interrupted' | 'auth' | 'credit';
  errorKind?: 'judge_error' | 'grader_error' | 'internal_error';
  outcome?: CandidateOutcome;
  prompt?: string;
}

/** iteration_finished and the spend in one append, decision.json, run_stopped and results.tsv. */
async function journalEnd(
  recorder: RunRecorder,
  pool: ModelPool,
  runDir: string,
  end: EndOfEval,
): Promise<void> {
  const { outcome } = end;
  const spend = spendSince({ byRole: {}, total: emptyTotals() }, pool.ledger.snapshot(), {
    iteration: ITERATION,
  });
  const scored = outcome?.ok ? outcome : undefined;
  const hasHoldout = scored !== undefined && scored.scores.holdout.cases.length > 0;
  const finished = iterationFinished({
    iteration: ITERATION,
    status: end.status,
    candidate: scored ? CANDIDATE : null,
    train: scored?.scores.train.total ?? null,
    holdout: hasHoldout ? (scored?.scores.holdout.total ?? null) : null,
    ...(end.errorKind ? { errorKind: end.errorKind } : {}),
    ...(end.status === 'baseline' ? {} : { message: end.message }),
    promptSha256: end.prompt === undefined ? null : hashPrompt(end.prompt),
    spend,
    seconds: end.seconds,
  });
  await recorder.emit(finished, ...spend);
  if (outcome) {
    await writeDecision(
      runDir,
      ITERATION,
      scored
        ? {
            status: 'baseline',
            reason: 'autoresearch eval: one evaluation of the current prompt; nothing to decide',
            scores: {
              train: scored.scores.train.total,
              holdout: scored.scores.holdout.total,
              all: scored.scores.all.total,
              ...(scored.scores.test ? { test: scored.scores.test.total } : {}),
            },
          }
        : { status: 'error', errorKind: finished.errorKind, message: end.message },
    );
  }
  await recorder.emit({ type: 'run_stopped', reason: end.reason, message: end.message });
}

interface Stop {
  reason: 'interrupted' | 'auth' | 'credit';
  message: string;
  error?: AutoresearchError;
}

function classifyStop(error: unknown, signal: AbortSignal, experiment: Experiment): Stop | undefined {
  if (signal.aborted || (error instanceof ProviderError && error.kind === 'aborted')) {
    return { reason: 'interrupted', message: 'interrupted (Ctrl-C) before the evaluation finished' };
  }
  if (!(error instanceof ProviderError) || !error.stopsRun) return undefined;
  const names = keyVariables(experiment);
  const named = names.some((name) => error.message.includes(name));
  const message =
    named || names.length === 0 || error.hint !== undefined
      ? error.message
      : `${error.message} (API key: ${names.join(', ')})`;
  const hint =
    error.hint ??
    (error.kind === 'auth'
      ? `check that ${names.join(' / ') || 'the API key'} holds a valid key for this endpoint`
      : `add credit to the account behind ${names.join(' / ') || 'the API key'}, then run eval again`);
  return {
    reason: error.kind === 'auth' ? 'auth' : 'credit',
    message,
    error: new AutoresearchError(error.kind === 'auth' ? 'E_AUTH' : 'E_CREDIT', message, {
      hint,
      cause: error,
    }),
  };
}

function describeScores(scores: CandidateScores): string {
  const show = (value: number | null) => (value === null ? 'n/a' : value.toFixed(4));
  if (scores.test) return `evaluated once: test ${show(scores.test.total)} (the sealed test cases only)`;
  return `evaluated once: train ${show(scores.train.total)}, holdout ${show(scores.holdout.total)}, all ${show(scores.all.total)}`;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
