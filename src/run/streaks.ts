/**
 * The one streak rule: what each iteration status does to each in-a-row count. The run-state
 * fold (fold-iterations.ts) keeps the counters the budget reads with it — `nonImproving` for
 * `patience`, `consecutiveErrors` for the error stop, `discardsInARow` — and the mutation mode
 * (focused → bold after `bold_after`, src/loop/strategy.ts) keeps its streak with it, so no
 * search or stop counts a status its own way.
 *
 * `pooled` (a member entered the pareto pool, the best did not move) is neutral for `patience`,
 * which waits for the best to move, and progress for the mode and `discardsInARow` (some
 * lineage improved). `duplicate`, `error` and `interrupted` taught nothing about the prompt:
 * neutral for patience and the mode; an `interrupted` iteration is redone under its number, so
 * it leaves every count alone.
 */
import type { IterationStatus } from './events.js';
import type { Counters } from './run-state.js';

/** One streak's move on a status: one more, back to zero, or left as it is. */
export type StreakEffect = 'count' | 'reset' | 'neutral';

export interface StatusEffects {
  nonImproving: StreakEffect;
  consecutiveErrors: StreakEffect;
  discardsInARow: StreakEffect;
  /** The mutation mode's streak of non-improving iterations. */
  mode: StreakEffect;
}

const PROGRESS: StatusEffects = {
  nonImproving: 'reset',
  consecutiveErrors: 'reset',
  discardsInARow: 'reset',
  mode: 'reset',
};
// A candidate was evaluated and not kept (docs/design/paired-acceptance.md: `inconclusive` and
// `screened_out` count like a discard).
const NON_IMPROVING: StatusEffects = {
  nonImproving: 'count',
  consecutiveErrors: 'reset',
  discardsInARow: 'count',
  mode: 'count',
};

const EFFECTS: Record<IterationStatus, StatusEffects> = {
  baseline: PROGRESS,
  keep: PROGRESS,
  discard: NON_IMPROVING,
  gate_fail: NON_IMPROVING,
  holdout_fail: NON_IMPROVING,
  inconclusive: NON_IMPROVING,
  screened_out: NON_IMPROVING,
  duplicate: {
    nonImproving: 'neutral',
    consecutiveErrors: 'reset',
    discardsInARow: 'count',
    mode: 'neutral',
  },
  pooled: { nonImproving: 'neutral', consecutiveErrors: 'reset', discardsInARow: 'reset', mode: 'reset' },
  error: { nonImproving: 'neutral', consecutiveErrors: 'count', discardsInARow: 'neutral', mode: 'neutral' },
  interrupted: {
    nonImproving: 'neutral',
    consecutiveErrors: 'neutral',
    discardsInARow: 'neutral',
    mode: 'neutral',
  },
};

export function effectsOf(status: IterationStatus): StatusEffects {
  return EFFECTS[status];
}

export function advanceStreak(count: number, effect: StreakEffect): number {
  return effect === 'count' ? count + 1 : effect === 'reset' ? 0 : count;
}

/** The counters after one more finished iteration. */
export function advanceCounters(counters: Counters, status: IterationStatus): Counters {
  const effects = EFFECTS[status];
  return {
    nonImproving: advanceStreak(counters.nonImproving, effects.nonImproving),
    consecutiveErrors: advanceStreak(counters.consecutiveErrors, effects.consecutiveErrors),
    discardsInARow: advanceStreak(counters.discardsInARow, effects.discardsInARow),
  };
}

/** A candidate was evaluated and not kept: the status counts towards `patience`. */
export function isNonImproving(status: IterationStatus): boolean {
  return EFFECTS[status].nonImproving === 'count';
}
