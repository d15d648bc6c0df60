/**
 * Focused ↔ bold (docs/design/experiment-format.md `bold_after`): after `bold_after` non-improving
 * iterations in a row the mutator is asked for a bolder change; a keep (or a candidate entering the
 * pareto pool) brings it back to focused changes. Which status counts, resets or leaves the streak
 * alone is the one streak rule, src/run/streaks.ts.
 */
import type { MutatorFeedback } from '../protocol/mutation.js';
import type { IterationStatus } from '../run/events.js';
import { advanceStreak, effectsOf } from '../run/streaks.js';

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
  const effect = effectsOf(status).mode;
  if (effect === 'reset') return INITIAL_STRATEGY;
  if (effect === 'neutral') return state;
  const discardStreak = advanceStreak(state.discardStreak, effect);
  return { strategy: discardStreak >= boldAfter ? 'bold' : 'focused', discardStreak };
}

/** The strategy for the next iteration, folded from every status so far (oldest first): resume-safe. */
export function replayStrategy(statuses: readonly IterationStatus[], boldAfter: number): StrategyState {
  return statuses.reduce((state, status) => advanceStrategy(state, status, boldAfter), INITIAL_STRATEGY);
}
