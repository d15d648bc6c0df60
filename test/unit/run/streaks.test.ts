import { describe, expect, it } from 'vitest';
import { replayStrategy } from '../../../src/loop/strategy.js';
import { IterationStatus } from '../../../src/run/events.js';
import type { Counters } from '../../../src/run/run-state.js';
import { advanceCounters, effectsOf, isNonImproving } from '../../../src/run/streaks.js';

const NONE: Counters = { nonImproving: 0, consecutiveErrors: 0, discardsInARow: 0 };
const streaksOf = (statuses: readonly IterationStatus[]) => statuses.reduce(advanceCounters, NONE);

describe('streaks', () => {
  it('counts non-improving iterations at the end, skipping error and duplicate', () => {
    expect(streaksOf([]).nonImproving).toBe(0);
    expect(streaksOf(['baseline', 'discard', 'error', 'gate_fail', 'duplicate']).nonImproving).toBe(2);
    expect(streaksOf(['discard', 'keep', 'holdout_fail']).nonImproving).toBe(1);
    expect(streaksOf(['discard', 'keep']).nonImproving).toBe(0);
  });

  it('counts errors in a row; any other outcome breaks it, interrupted is skipped', () => {
    expect(streaksOf(['error', 'error', 'error']).consecutiveErrors).toBe(3);
    expect(streaksOf(['error', 'duplicate', 'error', 'error']).consecutiveErrors).toBe(2);
    expect(streaksOf(['error', 'interrupted', 'error']).consecutiveErrors).toBe(2);
    expect(streaksOf(['error', 'keep']).consecutiveErrors).toBe(0);
  });

  it('pooled is neutral for patience (the best did not move) and progress for the mode', () => {
    expect(streaksOf(['discard', 'pooled', 'discard']).nonImproving).toBe(2);
    expect(streaksOf(['discard', 'pooled', 'discard']).discardsInARow).toBe(1);
    expect(replayStrategy(['discard', 'discard', 'pooled', 'discard'], 2)).toEqual({
      strategy: 'focused',
      discardStreak: 1,
    });
  });

  it('the mode counts exactly the statuses patience counts', () => {
    for (const status of IterationStatus.options)
      expect(effectsOf(status).mode === 'count', status).toBe(isNonImproving(status));
  });
});
