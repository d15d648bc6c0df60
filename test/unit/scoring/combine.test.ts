import { describe, expect, it } from 'vitest';
import { combine } from '../../../src/scoring/combine.js';

const weights = { checks: 0.4, judge: 0.4, expectations: 0.2 };

describe('combine', () => {
  it('weights all three signals', () => {
    expect(combine({ checks: 1, judge: 0.5, expectations: 0 }, weights)).toBeCloseTo(0.6, 12);
  });

  it('drops a missing signal and renormalises the rest', () => {
    expect(combine({ checks: 1, judge: 0.5 }, weights)).toBeCloseTo(0.75, 12);
    expect(combine({ expectations: 0.3 }, weights)).toBeCloseTo(0.3, 12);
    expect(combine({ checks: 0.2, expectations: 0.8 }, weights)).toBeCloseTo(
      (0.4 * 0.2 + 0.2 * 0.8) / 0.6,
      12,
    );
  });

  it('ignores a zero-weight signal when another has weight', () => {
    expect(combine({ checks: 0, judge: 0.9 }, { checks: 0, judge: 1, expectations: 0 })).toBeCloseTo(0.9, 12);
  });

  it('counts present signals equally when all their weights are zero', () => {
    expect(combine({ checks: 0.2, expectations: 0.6 }, { checks: 0, judge: 1, expectations: 0 })).toBeCloseTo(
      0.4,
      12,
    );
  });

  it('is null with no signal', () => {
    expect(combine({}, weights)).toBeNull();
  });
});
