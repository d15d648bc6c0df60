/**
 * The imperative shell around the loop, shared by `run` and `resume`: the model pool, the
 * signals (first Ctrl-C aborts in-flight calls and journals the iteration as interrupted,
 * a second exits at once), the stop flag file, the terminal renderer, the lock, the
 * closing summary and the experiment's `on_finish` program.
 */
import { agentPart } from '../agent/agent-runner.js';
import { basename } from 'node:path';
import { AutoresearchError, EXIT, type ExitCode } from '../errors.js';
import { ROLES } from '../experiment/roles.js';
import { judgeMembers, roleModels } from '../experiment/judge-panel.js';
import { isProgramEntry } from '../experiment/program-entry.js';
import type { Experiment } from '../experiment/types.js';
import {
  type BatchRunner,
  BatchWaitCutOff,
  batchPollingFromEnv,
  createBatchRunner,
  type Submitted,
} from '../providers/batch/batch-runner.js';
import { createModelPool, type ModelPool, type PoolBudget } from '../providers/model-pool.js';
import { withoutKeys } from '../providers/role-env.js';
import { createSpendReservations } from '../providers/spend-reservations.js';
import { createSandboxedReview } from '../evaluate/sandboxed-review.js';
import type { KillPoint } from '../loop/kill-point.js';
import type { GitBinding } from '../loop/loop-deps.js';
import { runLoop } from '../loop/run-loop.js';
import type { RunRecorder } from '../loop/run-recorder.js';
import { createReportRefresher } from '../report/write-report.js';
import type { RunEvent } from '../run/events.js';
import type { RunLock } from '../run/lock.js';
import { runPaths } from '../run/paths.js';
import { activeSecondsAt } from '../run/reducer.js';
import { clearStopRequest, isStopRequested } from './stop-request.js';
import { finishSummary, runOnFinish } from './on-finish.js';
import { attachRunRenderer, renderNote, renderRunSummary } from '../ui/run-renderer.js';
import { terminal } from '../ui/terminal.js';
import { strategyFor } from '../search/choose-strategy.js';

/** The events after which the report has something new to show. */
const REPORT_EVENTS: ReadonlySet<RunEvent['type']> = new Set([
  'candidate_evaluated',
  'iteration_finished',
  'commit',
  'run_stopped',
]);

/** How long the first Ctrl-C waits for the iteration to be journaled before exiting anyway. */
const INTERRUPT_GRACE_MS = 4_500;

export interface SessionInput {
  experiment: Experiment;
  runId: string;
  runDir: string;
  recorder: RunRecorder;
  git: GitBinding | null;
  lock: RunLock;
  env: NodeJS.ProcessEnv;
  planEstimate?: { usd: number | null; seconds: number | null };
  /**
   * Batches an earlier process journaled and never finished: polled, not submitted again
   * (docs/design/cost-engine.md).
   */
  pendingBatches?: readonly Submitted[];
  /** Test-only (AUTORESEARCH_TEST_KILL_AT): the same one the recorder was given. */
  killPoint?: KillPoint;
}

export function simulatedRoles(experiment: Experiment): (typeof ROLES)[number][] {
  const simulated = roleModels(experiment.models).filter((m) => m.entry.provider === 'sim');
  return ROLES.filter((role) => simulated.some((m) => m.role === role));
}

/**
 * docs/design/cost-engine.md: a wait on batches can last hours, so `autoresearch stop` and the
 * `hours` budget end it at once (not after the iteration, as without batches). The batches stay
 * journaled, never cancelled, for resume to poll; the whole run is aborted with the cut as its
 * reason, so the iteration's other calls stop as on Ctrl-C and the loop ends with the cut's reason.
 * The final evaluation (no iteration open) runs past `hours` as it does without batches.
 */
function batchWaitCutoff(
  input: SessionInput,
  controller: AbortController,
): () => BatchWaitCutOff | undefined {
  const { experiment, recorder } = input;
  const hours = experiment.config.budget.hours;
  const cutOf = (): BatchWaitCutOff | undefined => {
    if (isStopRequested(input.runDir, input.lock.record.token))
      return new BatchWaitCutOff(
        'stop_requested',
        'stopped by `autoresearch stop` while waiting on a batch; it is left pending and `autoresearch resume` polls it',
      );
    const state = recorder.state();
    if (hours !== undefined && state.open !== null && activeSecondsAt(state, new Date()) >= hours * 3600)
      return new BatchWaitCutOff(
        'hours',
        `the ${hours} h budget ran out while waiting on a batch; it is left pending, with no final evaluation — \`autoresearch resume --hours +H\` polls it`,
      );
    return undefined;
  };
  return () => {
    const cut = cutOf();
    if (cut !== undefined && !controller.signal.aborted) controller.abort(cut);
    return cut;
  };
}

/**
 * `--batch` / `batch: true` (docs/design/cost-engine.md): the run's batch runner, journaling
 * through the recorder.
 */
function createSessionBatches(
  input: SessionInput,
  pool: ModelPool,
  cutoff: () => BatchWaitCutOff | undefined,
): BatchRunner | undefined {
  const { experiment, recorder } = input;
  if (experiment.config.batch !== true || pool.batchCache === undefined) return undefined;
  const warned = new Set<string>();
  const programs = [
    ...(experiment.models.judge === undefined ? [] : judgeMembers(experiment.models.judge)),
    ...(experiment.models.grader === undefined ? [] : [experiment.models.grader]),
  ].filter(isProgramEntry);
  if (programs.length > 0)
    recorder
      .emit({
        type: 'warning',
        message: `--batch: judge and grader programs (${programs.map((p) => p.command.join(' ')).join('; ')}) are not batched; their calls are made one by one`,
      })
      .catch(() => undefined);
  return createBatchRunner({
    cache: pool.batchCache,
    models: experiment.models,
    env: input.env,
    polling: batchPollingFromEnv(input.env),
    pending: input.pendingBatches ?? [],
    cutoff,
    journal: {
      submitted: (event) => recorder.emit({ type: 'batch_submitted', ...event }),
      finished: (event) => recorder.emit({ type: 'batch_finished', ...event }),
      warn(message) {
        if (warned.has(message)) return;
        warned.add(message);
        recorder.emit({ type: 'warning', message }).catch(() => undefined);
      },
    },
  });
}

/**
 * `budget.usd` before each call (docs/design/cost-engine.md): what earlier sessions spent counts,
 * and the first call that would cross it aborts the run with the BudgetReached as its reason.
 */
function sessionBudget(input: SessionInput, controller: AbortController): { budget?: PoolBudget } {
  const limit = input.experiment.config.budget.usd;
  if (limit === undefined) return {};
  return {
    budget: {
      reservations: createSpendReservations(limit, input.recorder.state().spend.usd),
      onRefused(reached) {
        if (!controller.signal.aborted) controller.abort(reached);
      },
    },
  };
}

export async function runSession(input: SessionInput): Promise<ExitCode> {
  const term = terminal();
  const { experiment, recorder, runDir } = input;
  const controller = new AbortController();
  let interrupts = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    interrupts += 1;
    if (interrupts > 1) {
      term.err(
        renderNote(
          term,
          `second interrupt: exiting now (the journal is intact; \`autoresearch resume ${basename(runDir)}\` continues)`,
        ),
      );
      process.exit(EXIT.interrupted);
    }
    term.err(
      renderNote(
        term,
        `${signal}: stopping — journaling the current iteration as interrupted (Ctrl-C again to exit at once)`,
      ),
    );
    controller.abort(new AutoresearchError('E_INTERRUPTED', 'interrupted'));
    setTimeout(() => process.exit(EXIT.interrupted), INTERRUPT_GRACE_MS).unref();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  const pool = createModelPool({
    models: experiment.models,
    concurrency: experiment.config.concurrency,
    cacheDir: runPaths(runDir).cache,
    env: input.env,
    signal: controller.signal,
    cwd: experiment.dir,
    onWarning: (message) => void recorder.emit({ type: 'warning', message }).catch(() => undefined),
    ...sessionBudget(input, controller),
  });
  recorder.onEvent(attachRunRenderer(term, { budget: experiment.config.budget }));
  // report.html follows the run (at most every 30 s, never per model call) and is complete at its end.
  const report = createReportRefresher(runDir);
  recorder.onEvent((event) => {
    if (REPORT_EVENTS.has(event.type)) report.maybeRefresh().catch(() => undefined);
  });
  const batch = createSessionBatches(input, pool, batchWaitCutoff(input, controller));
  const checkpoint = input.killPoint?.reach;
  try {
    const end = await runLoop({
      experiment,
      runId: input.runId,
      runDir,
      recorder,
      strategy: strategyFor({ experiment, recorder }),
      pool,
      git: input.git,
      now: () => new Date(),
      signal: controller.signal,
      stopRequested: () => isStopRequested(runDir, input.lock.record.token),
      env: input.env,
      ...createSandboxedReview(experiment, pool, { env: input.env }),
      ...agentPart(experiment),
      ...(input.planEstimate ? { planEstimate: input.planEstimate } : {}),
      ...(batch === undefined ? {} : { batch }),
      ...(checkpoint ? { checkpoint } : {}),
    });
    await report.refreshNow().catch((error: unknown) => {
      term.err(
        term.colors.yellow(
          renderNote(term, `warning: report.html could not be written: ${String(error)}`, 9),
        ),
      );
    });
    term.out('');
    term.out(
      renderRunSummary(recorder.state(), term, {
        runId: input.runId,
        reportPath: runPaths(runDir).report,
        simulated: simulatedRoles(experiment).length > 0,
      }),
    );
    await notifyFinish(input);
    return end.exitCode;
  } catch (error) {
    // A night that ended in an error is over too: on_finish hears of it (status "crashed").
    await notifyFinish(input).catch(() => undefined);
    throw error;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await pool.close().catch(() => undefined);
    await clearStopRequest(runDir).catch(() => undefined);
    await input.lock.release().catch(() => undefined);
  }
}

/**
 * `on_finish` (docs/design/cost-engine.md): its failure is journaled (and so printed) as a warning,
 * never the run's.
 */
async function notifyFinish(input: SessionInput): Promise<void> {
  const argv = input.experiment.config.on_finish;
  if (argv === undefined) return;
  const summary = finishSummary(input.recorder.state(), {
    runId: input.runId,
    reportPath: runPaths(input.runDir).report,
  });
  const warning = await runOnFinish(argv, summary, {
    cwd: input.experiment.dir,
    // A notifier has no model role: it gets no model key (role-env.ts).
    env: withoutKeys(input.env, input.experiment.models),
  });
  if (warning !== null)
    await input.recorder.emit({ type: 'warning', message: warning }).catch(() => undefined);
}
