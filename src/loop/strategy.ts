/**
 * Focused ↔ bold (docs/design/experiment-format.md `bold_after`): after `bold_after` non-improving
 * iterations in a row (discard, gate_fail, holdout_fail) the mutator is asked for a bolder change;
 * a keep brings it back to focused changes. `duplicate`, `error` and `interrupted` tell nothing
 * about the strategy, so they neither count nor reset the streak (the same rule as `patience`).
 */
import type { MutatorFeedback } from '../protocol/mutation.js';
import { type IterationStatus, isNonImproving } from './status.js';

export type Strategy = MutatorFeedback['strategy'];

export interface StrategyState {
  strategy: Strategy;
  /** Non-improving iterations since the last keep (or the baseline). */
  discardStreak: number;
}

export const INITIAL_STRATEGY: StrategyState = { strategy: 'focused', discardStreak: 0 };

export function advanceStrategy(
  state: StrategyState,
  status: IterationStatus,
  boldAfter: number,
): StrategyState {
  // docs/design/pareto-search.md: a candidate entering the pool is progress for the mode, like a
  // keep.
  if (status === 'keep' || status === 'pooled' || status === 'baseline') return INITIAL_STRATEGY;
  if (!isNonImproving(status)) return state;
  const discardStreak = state.discardStreak + 1;
  return { strategy: discardStreak >= boldAfter ? 'bold' : 'focused', discardStreak };
}

/** The strategy for the next iteration, folded from every status so far (oldest first): resume-safe. */
export function replayStrategy(statuses: readonly IterationStatus[], boldAfter: number): StrategyState {
  return statuses.reduce((state, status) => advanceStrategy(state, status, boldAfter), INITIAL_STRATEGY);
}
