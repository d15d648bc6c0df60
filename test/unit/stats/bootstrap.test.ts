/** The seeded percentile bootstrap: reproducible, sensible on easy data, honest on degenerate data. */
import { describe, expect, it } from 'vitest';
import { quadraticKappa } from '../../../src/stats/agreement.js';
import { bootstrapInterval, pick, quantile } from '../../../src/stats/bootstrap.js';

const values = [0.2, 0.5, 0.9, 0.4, 0.7, 0.1, 0.8, 0.6, 0.3, 0.5];
const mean = (indexes: readonly number[]) =>
  pick(values, indexes).reduce((s, v) => s + v, 0) / indexes.length;

describe('bootstrapInterval', () => {
  it('gives the same interval for the same seed and another for another seed', () => {
    const a = bootstrapInterval({ n: values.length, statistic: mean, seed: 7 });
    const b = bootstrapInterval({ n: values.length, statistic: mean, seed: 7 });
    const c = bootstrapInterval({ n: values.length, statistic: mean, seed: 8 });
    expect(a).toEqual(b);
    expect(c).not.toEqual(a);
  });

  it('brackets the estimate of a mean, inside the data range', () => {
    const [lo, hi] = bootstrapInterval({ n: values.length, statistic: mean, seed: 1 }) ?? [NaN, NaN];
    expect(lo).toBeLessThan(0.5);
    expect(hi).toBeGreaterThan(0.5);
    expect(lo).toBeGreaterThanOrEqual(0.1);
    expect(hi).toBeLessThanOrEqual(0.9);
    // Roughly ±2 standard errors (sd ≈ 0.26, se ≈ 0.08).
    expect(hi - lo).toBeGreaterThan(0.2);
    expect(hi - lo).toBeLessThan(0.4);
  });

  it('narrows as the level drops', () => {
    const wide = bootstrapInterval({ n: values.length, statistic: mean, seed: 1, level: 0.95 });
    const narrow = bootstrapInterval({ n: values.length, statistic: mean, seed: 1, level: 0.5 });
    expect(narrow && wide && narrow[1] - narrow[0] < wide[1] - wide[0]).toBe(true);
  });

  it('is a point for perfect agreement and null when the statistic is mostly undefined', () => {
    const human = [1, 2, 3, 4, 5, 3];
    const kappa = (ix: readonly number[]) => quadraticKappa(pick(human, ix), pick(human, ix));
    // A resample with one distinct rating has no kappa; the rest are all 1.
    expect(bootstrapInterval({ n: human.length, statistic: kappa, seed: 3 })).toEqual([1, 1]);
    const constant = [3, 3, 3, 3];
    const none = (ix: readonly number[]) => quadraticKappa(pick(constant, ix), pick(constant, ix));
    expect(bootstrapInterval({ n: constant.length, statistic: none, seed: 3 })).toBeNull();
    expect(bootstrapInterval({ n: 1, statistic: () => 1, seed: 3 })).toBeNull();
  });
});

describe('quantile', () => {
  it('interpolates between ranks like R type 7', () => {
    expect(quantile([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(quantile([1, 2, 3, 4], 0)).toBe(1);
    expect(quantile([1, 2, 3, 4], 1)).toBe(4);
    expect(quantile([10, 20], 0.25)).toBe(12.5);
  });
});
