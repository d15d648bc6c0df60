/**
 * Where a run stands against its budget, for `run`'s status line: which iteration of how many, the
 * active time so far, and how long the rest should take at the run's own pace — the mean time of
 * the iterations it finished after the baseline. The hours budget may end the run first; then the
 * estimate is what is left of it, and the line says so. Patience, target and usd can end a run
 * sooner still, so the estimate is an upper bound, and it reads as one.
 */
import { activeSecondsAt } from '../run/reducer.js';
import type { RunState } from '../run/run-state.js';
import { formatDuration } from './format-figures.js';

export interface ProgressBudget {
  iterations?: number;
  hours?: number;
}

export interface RunProgress {
  /** The iteration under way (0: the baseline). */
  iteration: number;
  /** The iteration budget, counted after the baseline as the budget counts. */
  of: number | null;
  activeSeconds: number;
  /** Seconds left at the run's pace; null before any iteration after the baseline finished. */
  leftSeconds: number | null;
  /** The hours budget ends the run before the iteration budget would. */
  hoursBind: boolean;
}

export function runProgress(state: RunState, budget: ProgressBudget, now: Date): RunProgress | null {
  const open = state.open;
  if (!open) return null;
  const activeSeconds = activeSecondsAt(state, now);
  const paced = state.iterations.filter((r) => r.status !== 'baseline' && r.status !== 'interrupted');
  const pace = paced.length === 0 ? null : paced.reduce((sum, r) => sum + r.seconds, 0) / paced.length;
  const of = budget.iterations ?? null;
  let leftSeconds: number | null = null;
  let hoursBind = false;
  if (pace !== null && of !== null) {
    const sinceStart = open.startedAt ? Math.max(0, (now.getTime() - Date.parse(open.startedAt)) / 1000) : 0;
    // The iteration under way counts as one still to do, less the time it has run.
    const toDo = Math.max(0, of - state.completedIterations);
    leftSeconds = Math.max(0, toDo * pace - Math.min(sinceStart, pace));
    if (budget.hours !== undefined) {
      const hoursLeft = Math.max(0, budget.hours * 3600 - activeSeconds);
      if (hoursLeft < leftSeconds) {
        leftSeconds = hoursLeft;
        hoursBind = true;
      }
    }
  }
  return { iteration: open.iteration, of, activeSeconds, leftSeconds, hoursBind };
}

/** `3 of 12 iterations, 4m 10s active, at most ~11m 20s left` */
export function describeRunProgress(progress: RunProgress): string {
  const parts: string[] = [];
  if (progress.iteration === 0) parts.push('baseline');
  else if (progress.of !== null) parts.push(`${progress.iteration} of ${progress.of} iterations`);
  parts.push(`${formatDuration(progress.activeSeconds)} active`);
  if (progress.leftSeconds !== null)
    parts.push(
      `at most ~${formatDuration(progress.leftSeconds)} left${progress.hoursBind ? ' (the hours budget ends it)' : ''}`,
    );
  return parts.join(', ');
}
