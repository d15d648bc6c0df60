/**
 * `autoresearch calibrate` without the CLI (docs/design/judge-reliability.md): the labelled outputs
 * go through the experiment's judge and grader in their usual sandboxes, the agreement with the
 * human labels is measured, and the whole is recorded as a run of kind `calibrate`:
 *
 *   run_started (calibrate) → spend → calibrated → run_stopped
 *
 * with calibration.json beside the journal, all under the run lock. A judge or grader error,
 * Ctrl-C, or an auth/credit failure stops it (journaled) and is thrown to the CLI.
 */
import { isAbsolute, join, relative } from 'node:path';
import { AutoresearchError } from '../errors.js';
import { isProgramEntry } from '../experiment/program-entry.js';
import { isPanel, judgeMembers, roleModels } from '../experiment/judge-panel.js';
import type { JudgeConfig, JudgeEntry } from '../experiment/schema.js';
import type { Experiment } from '../experiment/types.js';
import { createSandboxedReview } from '../evaluate/sandboxed-review.js';
import { openEvalRun } from '../eval-command/open-eval-run.js';
import { formatModelLabel } from '../grader/grader-layout.js';
import type { RunRecorder } from '../loop/run-recorder.js';
import { spendSince } from '../loop/spend.js';
import { emptyTotals } from '../providers/ledger.js';
import { createModelPool, type ModelPool, type ModelPoolOptions } from '../providers/model-pool.js';
import { ProviderError } from '../providers/types.js';
import type { SpendRole, StopReason } from '../run/events.js';
import { runPaths } from '../run/paths.js';
import type { ProcessIdentity } from '../run/process-identity.js';
import { writeReviewJson } from '../run/records.js';
import {
  CALIBRATION_FILE,
  CALIBRATION_FORMAT,
  CalibrationFile,
  labelledOutputs,
} from './calibration-file.js';
import type { Label } from './labels.js';
import {
  type BootstrapSettings,
  findLowestKappa,
  measureCriteria,
  measureExpectations,
} from './measure-agreement.js';
import type { ProbeResult } from './probe-result.js';
import { DEFAULT_REPEATS, runBiasProbes } from './probes.js';
import { reviewLabels } from './review-labels.js';

/** The roles a calibration calls. */
export const CALIBRATE_ROLES = ['judge', 'grader'] as const;

const ACCOUNT = 'calibrate';

export interface RunCalibrateInput {
  /** Loaded, with overrides applied, the grader resolved when expectations are labelled, keys checked. */
  experiment: Experiment;
  overrides: Record<string, unknown>;
  labels: readonly Label[];
  labelsFile: string;
  labelsSha256: string;
  runsDir: string;
  projectRoot: string;
  bootstrap: BootstrapSettings;
  /** False under --no-probes. */
  probes: boolean;
}

export interface RunCalibrateDeps {
  env: NodeJS.ProcessEnv;
  now: () => Date;
  random: () => number;
  signal: AbortSignal;
  identity: ProcessIdentity;
  /** The built CLI, for the built-in judge and grader programs (default: found from the package). */
  cliEntry?: string;
  createPool?: (options: ModelPoolOptions) => ModelPool;
}

export type CalibrateRunResult =
  | { status: 'done'; runId: string; runDir: string; calibration: CalibrationFile }
  | { status: 'interrupted'; runId: string; runDir: string; message: string };

/** The roles these labels call: the judge for labelled scores, the grader for labelled expectations. */
export function calledRoles(labels: readonly Label[]): (typeof CALIBRATE_ROLES)[number][] {
  return CALIBRATE_ROLES.filter((role) =>
    labels.some((l) => (role === 'judge' ? Object.keys(l.scores).length > 0 : l.expectations.length > 0)),
  );
}

/** The roles of this calibration that the simulated provider serves: results must say so. */
export function simulatedCalibrateRoles(experiment: Experiment, labels: readonly Label[]): SpendRole[] {
  const models = roleModels(experiment.models, calledRoles(labels));
  return calledRoles(labels).filter((role) =>
    models.some((m) => m.role === role && m.entry.provider === 'sim'),
  );
}

/** The judge or grader as calibration.json names it. */
export function describeEntry(config: JudgeConfig | undefined): string | null {
  if (config === undefined) return null;
  const label = (entry: JudgeEntry) =>
    isProgramEntry(entry) ? `program: ${entry.command.join(' ')}` : formatModelLabel(entry);
  if (!isPanel(config)) return label(config);
  return `panel (${config.aggregate}) of ${config.panel.map(label).join(', ')}`;
}

export async function runCalibrate(
  input: RunCalibrateInput,
  deps: RunCalibrateDeps,
): Promise<CalibrateRunResult> {
  const { experiment } = input;
  const roles = calledRoles(input.labels);
  const simulated = simulatedCalibrateRoles(experiment, input.labels);
  const opened = await openEvalRun(
    {
      kind: 'calibrate',
      experiment,
      overrides: input.overrides,
      simulatedRoles: simulated,
      runsDir: input.runsDir,
      projectRoot: input.projectRoot,
    },
    { now: deps.now, random: deps.random, identity: deps.identity },
  );
  const { runId, runDir, recorder } = opened;
  const startedAt = deps.now();
  let pool: ModelPool | undefined;
  try {
    const models: Partial<Record<(typeof CALIBRATE_ROLES)[number], JudgeConfig>> = {};
    for (const role of roles) if (experiment.models[role]) models[role] = experiment.models[role];
    pool = (deps.createPool ?? createModelPool)({
      models,
      concurrency: experiment.config.concurrency,
      cacheDir: runPaths(runDir).cache,
      env: deps.env,
      signal: deps.signal,
      cwd: experiment.dir,
      onWarning: (message) => void recorder.emit({ type: 'warning', message }).catch(() => undefined),
    });
    const review = createSandboxedReview(experiment, pool, {
      env: deps.env,
      ...(deps.cliEntry ? { cliEntry: deps.cliEntry } : {}),
    });
    const seed = input.bootstrap.seed;
    let reviewed: Awaited<ReturnType<typeof reviewLabels>>;
    let probes: ProbeResult[] | null = null;
    try {
      reviewed = await reviewLabels({
        experiment,
        labels: input.labels,
        ...review,
        seed,
        signal: deps.signal,
        account: ACCOUNT,
      });
      if (reviewed.ok && input.probes && review.judge && experiment.rubric) {
        probes = await runBiasProbes({
          judge: review.judge,
          // The built-in judge scores one output per call; a program (or a panel with one) reads the whole folder.
          judgeSeesAllOutputs:
            experiment.models.judge !== undefined &&
            judgeMembers(experiment.models.judge).some((member) => isProgramEntry(member)),
          outputs: reviewed.judged,
          rubric: experiment.rubric,
          repeats: DEFAULT_REPEATS,
          seed,
          signal: deps.signal,
        });
      }
    } catch (error) {
      const stop = classifyStop(error, deps.signal);
      await finish(recorder, pool, stop.reason, stop.message).catch(() => undefined);
      if (stop.reason === 'interrupted')
        return { status: 'interrupted', runId, runDir, message: stop.message };
      throw stop.error ?? error;
    }
    if (!reviewed.ok) {
      const error = reviewed.providerError;
      if (deps.signal.aborted || error?.stopsRun === true || error?.kind === 'aborted') {
        const stop = classifyStop(error, deps.signal);
        await finish(recorder, pool, stop.reason, stop.message).catch(() => undefined);
        if (stop.reason === 'interrupted')
          return { status: 'interrupted', runId, runDir, message: stop.message };
        throw stop.error ?? error;
      }
      const message = `the ${reviewed.who} failed: ${reviewed.message}`;
      await finish(recorder, pool, 'errors', message).catch(() => undefined);
      throw new AutoresearchError(reviewed.who === 'judge' ? 'E_JUDGE' : 'E_GRADER', message, {
        hint: `the run record is in ${runDir}; \`autoresearch ${reviewed.who} …\` runs the ${reviewed.who} alone on a folder of outputs`,
      });
    }

    const criteria = measureCriteria(reviewed.outputs, experiment.rubric?.criteria ?? [], input.bootstrap);
    const lowestKappa = findLowestKappa(criteria);
    const ledger = pool.ledger.snapshot();
    const calibration = CalibrationFile.parse({
      format: CALIBRATION_FORMAT,
      runId,
      experiment: experiment.name,
      createdAt: startedAt.toISOString(),
      labels: {
        file: projectPath(input.projectRoot, input.labelsFile),
        sha256: input.labelsSha256,
        count: input.labels.length,
      },
      judge: roles.includes('judge') ? describeEntry(experiment.models.judge) : null,
      grader: roles.includes('grader') ? describeEntry(experiment.models.grader) : null,
      simulated,
      bootstrap: input.bootstrap,
      criteria,
      expectations: measureExpectations(reviewed.outputs, input.bootstrap),
      lowestKappa,
      outputs: reviewed.outputs,
      probes,
      costUsd: ledger.total.usd,
      seconds: Math.max(0, (deps.now().getTime() - startedAt.getTime()) / 1000),
    });
    await writeReviewJson(join(runDir, CALIBRATION_FILE), calibration);
    await finish(recorder, pool, 'completed', describeHeadline(calibration), {
      type: 'calibrated',
      labels: input.labels.length,
      lowestKappa,
    });
    return { status: 'done', runId, runDir, calibration };
  } finally {
    await pool?.close().catch(() => undefined);
    await opened.lock.release().catch(() => undefined);
  }
}

/** Relative to the project root when inside it, else absolute. */
function projectPath(root: string, file: string): string {
  const rel = relative(root, file);
  return rel.startsWith('..') || isAbsolute(rel) ? file : rel;
}

function describeHeadline(calibration: CalibrationFile): string {
  const lowest = calibration.lowestKappa;
  const kappa =
    lowest === null ? 'no kappa defined' : `lowest kappa ${lowest.kappa.toFixed(2)} (${lowest.criterion})`;
  return `calibrated the judge on ${labelledOutputs(calibration.labels.count)}: ${kappa}`;
}

/** The spend of the whole calibration, the headline (when it got that far) and the stop, in one append. */
async function finish(
  recorder: RunRecorder,
  pool: ModelPool,
  reason: StopReason,
  message: string,
  calibrated?: { type: 'calibrated'; labels: number; lowestKappa: CalibrationFile['lowestKappa'] },
): Promise<void> {
  const spend = spendSince({ byRole: {}, total: emptyTotals() }, pool.ledger.snapshot(), {});
  await recorder.emit(...spend, ...(calibrated ? [calibrated] : []), {
    type: 'run_stopped',
    reason,
    message,
  });
}

interface Stop {
  reason: 'interrupted' | 'auth' | 'credit' | 'errors';
  message: string;
  error?: AutoresearchError;
}

function classifyStop(error: unknown, signal: AbortSignal): Stop {
  if (signal.aborted || (error instanceof ProviderError && error.kind === 'aborted')) {
    return { reason: 'interrupted', message: 'interrupted (Ctrl-C) before the calibration finished' };
  }
  if (error instanceof ProviderError && error.stopsRun) {
    const auth = error.kind === 'auth';
    return {
      reason: auth ? 'auth' : 'credit',
      message: error.message,
      error: new AutoresearchError(auth ? 'E_AUTH' : 'E_CREDIT', error.message, {
        hint:
          error.hint ??
          (auth
            ? "check that the judge's and grader's API key is valid for this endpoint"
            : 'add credit to the account behind the API key, then run calibrate again'),
        cause: error,
      }),
    };
  }
  return { reason: 'errors', message: error instanceof Error ? error.message : String(error) };
}
