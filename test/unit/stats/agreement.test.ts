/** Agreement statistics against values computed by hand, including the degenerate cases. */
import { describe, expect, it } from 'vitest';
import {
  confusion,
  exactAgreement,
  matthews,
  quadraticKappa,
  ranks,
  spearman,
  trueNegativeRate,
  truePositiveRate,
  withinOneAgreement,
} from '../../../src/stats/agreement.js';

describe('exact and within-one agreement', () => {
  it('counts identical and adjacent pairs', () => {
    const human = [1, 2, 3, 4, 5];
    const judge = [1, 3, 5, 4, 4];
    expect(exactAgreement(human, judge)).toBeCloseTo(2 / 5, 12);
    expect(withinOneAgreement(human, judge)).toBeCloseTo(4 / 5, 12);
  });

  it('is undefined without pairs and refuses unpaired input', () => {
    expect(exactAgreement([], [])).toBeNull();
    expect(withinOneAgreement([], [])).toBeNull();
    expect(() => exactAgreement([1], [1, 2])).toThrow(/differ in length/);
  });
});

describe('quadratic-weighted kappa', () => {
  it('is 1 for perfect agreement', () => {
    expect(quadraticKappa([1, 2, 3, 4, 5], [1, 2, 3, 4, 5])).toBeCloseTo(1, 12);
  });

  it('matches a hand-computed table', () => {
    // observed Σ(h−j)² = 1; expected Σ(h−j)²·row·col/n = (2 + 1 + 4 + 2)/3 = 3; κ = 1 − 1/3.
    expect(quadraticKappa([1, 2, 3], [1, 2, 2])).toBeCloseTo(2 / 3, 12);
  });

  it('is −1 for complete reversal of two extremes', () => {
    // observed 32, expected 16.
    expect(quadraticKappa([1, 5], [5, 1])).toBeCloseTo(-1, 12);
  });

  it('is 0 when both raters are constant but apart, undefined when constant and equal', () => {
    expect(quadraticKappa([4, 4, 4], [3, 3, 3])).toBeCloseTo(0, 12);
    expect(quadraticKappa([3, 3, 3], [3, 3, 3])).toBeNull();
    expect(quadraticKappa([], [])).toBeNull();
  });

  it('is 0 when the judge gives one score to outputs people told apart', () => {
    expect(quadraticKappa([1, 2, 4, 5], [3, 3, 3, 3])).toBeCloseTo(0, 12);
  });

  it('refuses a rating off the scale', () => {
    expect(() => quadraticKappa([1, 6], [1, 2])).toThrow(/between 1 and 5/);
    expect(() => quadraticKappa([1, 2.5], [1, 2])).toThrow(/integer/);
  });
});

describe('Spearman', () => {
  it('uses mean ranks for ties', () => {
    expect(ranks([5, 6, 7, 8, 7])).toEqual([1, 2, 3.5, 5, 3.5]);
    // r of the ranks: Σdxdy = 8, Σdx² = 10, Σdy² = 9.5.
    expect(spearman([1, 2, 3, 4, 5], [5, 6, 7, 8, 7])).toBeCloseTo(8 / Math.sqrt(95), 12);
  });

  it('is ±1 for monotone data and undefined for a constant side', () => {
    expect(spearman([1, 2, 3], [2, 4, 9])).toBeCloseTo(1, 12);
    expect(spearman([1, 2, 3], [9, 4, 2])).toBeCloseTo(-1, 12);
    expect(spearman([1, 2, 3], [4, 4, 4])).toBeNull();
    expect(spearman([1], [1])).toBeNull();
  });
});

describe('TPR, TNR and MCC', () => {
  const human = [true, true, true, true, true, true, true, true, false, false, false, false];
  const judged = [true, true, true, true, true, true, false, false, true, false, false, false];

  it('match a hand-computed table', () => {
    const c = confusion(human, judged);
    expect(c).toEqual({ tp: 6, fn: 2, fp: 1, tn: 3 });
    expect(truePositiveRate(c)).toBeCloseTo(0.75, 12);
    expect(trueNegativeRate(c)).toBeCloseTo(0.75, 12);
    // (6·3 − 1·2) / √(7·8·4·5)
    expect(matthews(c)).toBeCloseTo(16 / Math.sqrt(1120), 12);
  });

  it('is 1 for perfect agreement with both classes', () => {
    expect(matthews(confusion([true, false, true], [true, false, true]))).toBeCloseTo(1, 12);
  });

  it('leaves what one class cannot tell undefined', () => {
    const allPass = confusion([true, true, true], [true, false, true]);
    expect(truePositiveRate(allPass)).toBeCloseTo(2 / 3, 12);
    expect(trueNegativeRate(allPass)).toBeNull();
    expect(matthews(allPass)).toBeNull();
    const judgeAlwaysFails = confusion([true, false], [false, false]);
    expect(matthews(judgeAlwaysFails)).toBeNull();
    expect(truePositiveRate(confusion([], []))).toBeNull();
  });
});
