/**
 * When the run stops (docs/design/experiment-format.md `budget`,
 * docs/design/commands-and-exit-codes.md). Checked before each iteration starts, so a limit stops
 * the run before work that would exceed it, not after: usd and hours compare what is spent plus the
 * estimate for the next iteration against the budget. When several limits are reached at once the
 * reason reported follows a fixed order: errors (a failure, exit 1), target (a success), then
 * iterations, patience, usd, hours.
 */
import { AutoresearchError } from '../errors.js';

export const MAX_CONSECUTIVE_ERRORS = 3;

export interface BudgetLimits {
  iterations?: number;
  hours?: number;
  usd?: number;
  patience?: number;
  target?: number;
}

export interface BudgetState {
  /** Iterations finished, the baseline not counted. */
  iterationsDone: number;
  activeSeconds: number;
  spentUsd: number;
  /** discard / gate_fail / holdout_fail in a row; error and duplicate neither count nor reset. */
  nonImproving: number;
  consecutiveErrors: number;
  incumbentTrain: number;
  incumbentEligible: boolean;
}

export interface CheckBudgetInput {
  budget: BudgetLimits;
  state: BudgetState;
  /** Estimated cost of the next iteration; null when prices are unknown. */
  estimateNextUsd: number | null;
  estimateNextSeconds: number | null;
}

export type StopReason = 'iterations' | 'hours' | 'usd' | 'patience' | 'target' | 'errors';

export type BudgetCheck = { stop: false } | { stop: true; reason: StopReason; message: string };

export function checkBudget({
  budget,
  state,
  estimateNextUsd,
  estimateNextSeconds,
}: CheckBudgetInput): BudgetCheck {
  const stop = (reason: StopReason, message: string): BudgetCheck => ({ stop: true, reason, message });

  if (state.consecutiveErrors >= MAX_CONSECUTIVE_ERRORS)
    return stop('errors', `${state.consecutiveErrors} iterations in a row ended in an error`);
  if (budget.target !== undefined && state.incumbentEligible && state.incumbentTrain >= budget.target)
    return stop(
      'target',
      `the best train score ${state.incumbentTrain.toFixed(3)} reached the target ${budget.target}`,
    );
  if (budget.iterations !== undefined && state.iterationsDone >= budget.iterations)
    return stop('iterations', `${state.iterationsDone} of ${budget.iterations} iterations done`);
  if (budget.patience !== undefined && state.nonImproving >= budget.patience)
    return stop(
      'patience',
      `${state.nonImproving} iterations in a row without a keep (patience ${budget.patience})`,
    );
  if (budget.usd !== undefined) {
    if (state.spentUsd >= budget.usd)
      return stop('usd', `spent ${usd(state.spentUsd)} of the ${usd(budget.usd)} budget`);
    if (estimateNextUsd !== null && state.spentUsd + estimateNextUsd > budget.usd)
      return stop(
        'usd',
        `spent ${usd(state.spentUsd)} of ${usd(budget.usd)}; the next iteration (about ${usd(estimateNextUsd)}) would exceed it`,
      );
  }
  if (budget.hours !== undefined) {
    const limit = budget.hours * 3600;
    if (state.activeSeconds >= limit)
      return stop('hours', `ran ${duration(state.activeSeconds)} of the ${budget.hours} h budget`);
    if (estimateNextSeconds !== null && state.activeSeconds + estimateNextSeconds > limit)
      return stop(
        'hours',
        `ran ${duration(state.activeSeconds)} of ${budget.hours} h; the next iteration (about ${duration(estimateNextSeconds)}) would exceed it`,
      );
  }
  return { stop: false };
}

export interface IterationCost {
  /** null when the price of some call is unknown. */
  usd: number | null;
  seconds: number;
}

export interface NextIterationEstimate {
  usd: number | null;
  seconds: number | null;
}

/**
 * The next iteration's cost and time: the mean over the iterations done so far (the baseline
 * excluded: its repeated evaluations are not one iteration), or the plan's estimate before the
 * first. Iterations without a known price are left out of the usd mean.
 */
export function estimateNextIteration(
  past: readonly IterationCost[],
  plan: NextIterationEstimate,
): NextIterationEstimate {
  const priced = past.flatMap((p) => (p.usd === null ? [] : [p.usd]));
  return {
    usd: priced.length > 0 ? mean(priced) : plan.usd,
    seconds: past.length > 0 ? mean(past.map((p) => p.seconds)) : plan.seconds,
  };
}

export interface OverrideOptions {
  /** The flag as the user typed it, for messages (e.g. `--iterations`). */
  name?: string;
  integer?: boolean;
  /**
   * What the run has used of this budget so far (iterations done, hours active, USD spent, the
   * current streak without a keep): `+N` counts from it, so `+10` is ten more from where the run
   * stopped, whether it stopped at its limit or was interrupted before it.
   */
  used?: number;
}

const OVERRIDE = /^(\+?)(\d+(?:\.\d+)?|\.\d+)$/;

/**
 * A budget flag on `resume` (docs/design/commands-and-exit-codes.md): `N` sets a new total, `+N`
 * allows N more from what the run has used (`used`; without it, from the current limit). Bad
 * input is a usage error (exit 2).
 */
export function parseBudgetOverride(
  flag: string,
  current: number | undefined,
  { name = 'the budget', integer = false, used }: OverrideOptions = {},
): number {
  const match = OVERRIDE.exec(flag.trim());
  const hint = `use N for a new total (${name} 20) or +N for N more from where the run stopped (${name} +10)`;
  if (!match) throw new AutoresearchError('E_USAGE', `${name} "${flag}" is not N or +N`, { hint });
  const value = Number(match[2]);
  if (integer && !Number.isInteger(value))
    throw new AutoresearchError('E_USAGE', `${name} "${flag}" must be a whole number`, { hint });
  if (match[1] !== '+') return value;
  if (used !== undefined) return used + value;
  if (current === undefined)
    throw new AutoresearchError('E_USAGE', `${name} ${flag}: there is no current limit to extend`, {
      hint: `give a total instead (${name} ${value})`,
    });
  return current + value;
}

function mean(values: readonly number[]): number {
  return values.reduce((sum, v) => sum + v, 0) / values.length;
}

function usd(value: number): string {
  return `$${value.toFixed(value < 1 ? 3 : 2)}`;
}

function duration(seconds: number): string {
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}
