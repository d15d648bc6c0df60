/**
 * `on_finish:` (docs/design/cost-engine.md): when a run stops, for any reason, the experiment's
 * program gets the run's summary JSON on stdin — a webhook, a desktop notification, a pager. It is
 * the user's program, run with the run's environment (its model keys left out: role-env.ts) from
 * the experiment's folder, and it is given 30 seconds. Whatever happens to it (it exits non-zero, times out, cannot be found) is a warning,
 * journaled and printed; the run's outcome and exit code are never its to change.
 */
import { resolveOnFinish } from '../experiment/validate-on-finish.js';
import { runProcess } from '../process/run-process.js';
import { buildOverview, headlineScores } from '../report/overview.js';
import type { RunState } from '../run/run-state.js';

export const ON_FINISH_TIMEOUT_MS = 30_000;

/** The run summary of docs/design/cost-engine.md, as `on_finish` reads it on stdin. */
export interface FinishSummary {
  run_id: string;
  experiment: string | null;
  status: 'running' | 'stopped' | 'finished' | 'crashed';
  stop_reason: string | null;
  /** The headline scores: the fresh final evaluation when the run got that far, else as decided. */
  baseline: { train: number | null; holdout: number | null } | null;
  best: { iteration: number; train: number | null; holdout: number | null } | null;
  /**
   * The sealed test split (docs/design/paired-acceptance.md), scored only by the final evaluation;
   * null without one.
   */
  test: { baseline: number | null; best: number | null } | null;
  iterations: number;
  cost_usd: number;
  branch: string | null;
  report: string;
}

export function finishSummary(state: RunState, run: { runId: string; reportPath: string }): FinishSummary {
  const overview = buildOverview(state, { id: run.runId, liveLock: false });
  const head = headlineScores(overview);
  const hasTest = head.baseline?.test !== undefined || head.best?.test !== undefined;
  return {
    run_id: run.runId,
    experiment: overview.experiment,
    status: overview.status,
    stop_reason: overview.stopReason,
    baseline: head.baseline && { train: head.baseline.train, holdout: head.baseline.holdout },
    best: head.best && { iteration: head.best.iteration, train: head.best.train, holdout: head.best.holdout },
    test: hasTest ? { baseline: head.baseline?.test ?? null, best: head.best?.test ?? null } : null,
    iterations: overview.iterations,
    cost_usd: overview.costUsd,
    branch: overview.branch,
    report: run.reportPath,
  };
}

/** Runs the program; the warning to journal when it failed, else null. */
export async function runOnFinish(
  argv: readonly string[],
  summary: FinishSummary,
  options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<string | null> {
  const [file, ...args] = resolveOnFinish(argv, options.cwd);
  if (file === undefined) return null;
  const timeoutMs = options.timeoutMs ?? ON_FINISH_TIMEOUT_MS;
  const result = await runProcess({
    file,
    args,
    cwd: options.cwd,
    env: options.env,
    input: `${JSON.stringify(summary, null, 2)}\n`,
    timeoutMs,
  });
  const name = argv[0] ?? file;
  if (result.startError !== undefined)
    return `on_finish: \`${name}\` could not be started (${result.startError.code ?? result.startError.message})`;
  if (result.timedOut) return `on_finish: \`${name}\` was stopped after ${timeoutMs / 1000} s`;
  if (result.exitCode === 0) return null;
  const why =
    result.exitCode === null ? `was killed (${result.signal ?? 'signal'})` : `exited with ${result.exitCode}`;
  const said = lastLine(result.stderr);
  return `on_finish: \`${name}\` ${why}${said === '' ? '' : `: ${said}`}`;
}

function lastLine(text: string): string {
  const lines = text.trim().split('\n');
  const last = (lines.at(-1) ?? '').trim();
  return last.length > 200 ? `${last.slice(0, 199)}…` : last;
}
