import { describe, expect, it } from 'vitest';
import { countErrorStreak, countNonImprovingStreak, type IterationStatus } from '../../../src/loop/status.js';
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

describe('streaks', () => {
  it('counts non-improving iterations at the end, skipping error and duplicate', () => {
    expect(countNonImprovingStreak([])).toBe(0);
    expect(countNonImprovingStreak(['baseline', 'discard', 'error', 'gate_fail', 'duplicate'])).toBe(2);
    expect(countNonImprovingStreak(['discard', 'keep', 'holdout_fail'])).toBe(1);
    expect(countNonImprovingStreak(['discard', 'keep'])).toBe(0);
  });

  it('counts errors in a row; any other outcome breaks it, interrupted is skipped', () => {
    expect(countErrorStreak(['error', 'error', 'error'])).toBe(3);
    expect(countErrorStreak(['error', 'duplicate', 'error', 'error'])).toBe(2);
    expect(countErrorStreak(['error', 'interrupted', 'error'])).toBe(2);
    expect(countErrorStreak(['error', 'keep'])).toBe(0);
  });
});
