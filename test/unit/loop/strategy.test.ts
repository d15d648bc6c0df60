import { describe, expect, it } from 'vitest';
import type { IterationStatus } from '../../../src/run/events.js';
import { advanceStrategy, INITIAL_STRATEGY, replayStrategy } from '../../../src/loop/strategy.js';

describe('strategy', () => {
  it('turns bold after bold_after non-improving iterations in a row', () => {
    const statuses: IterationStatus[] = ['baseline', 'discard', 'gate_fail'];
    expect(replayStrategy(statuses, 3)).toEqual({ strategy: 'focused', discardStreak: 2 });
    expect(replayStrategy([...statuses, 'holdout_fail'], 3)).toEqual({ strategy: 'bold', discardStreak: 3 });
    expect(replayStrategy([...statuses, 'holdout_fail', 'discard'], 3).strategy).toBe('bold');
  });

  it('goes back to focused after a keep', () => {
    const state = replayStrategy(['baseline', 'discard', 'discard', 'discard'], 3);
    expect(state.strategy).toBe('bold');
    expect(advanceStrategy(state, 'keep', 3)).toEqual(INITIAL_STRATEGY);
    expect(replayStrategy(['discard', 'discard', 'discard', 'keep', 'discard'], 3)).toEqual({
      strategy: 'focused',
      discardStreak: 1,
    });
  });

  it('duplicate, error and interrupted neither count nor reset', () => {
    const statuses: IterationStatus[] = ['discard', 'error', 'duplicate', 'discard', 'interrupted', 'error'];
    expect(replayStrategy(statuses, 3)).toEqual({ strategy: 'focused', discardStreak: 2 });
    expect(replayStrategy([...statuses, 'discard'], 3).strategy).toBe('bold');
    const bold = replayStrategy(['discard', 'discard'], 2);
    expect(advanceStrategy(bold, 'duplicate', 2)).toBe(bold);
    expect(advanceStrategy(bold, 'error', 2)).toBe(bold);
  });

  it('bold_after 1 switches after the first discard', () => {
    expect(advanceStrategy(INITIAL_STRATEGY, 'discard', 1).strategy).toBe('bold');
  });
});
