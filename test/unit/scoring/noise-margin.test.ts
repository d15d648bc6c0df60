import { describe, expect, it } from 'vitest';
import { noiseMargin } from '../../../src/scoring/noise-margin.js';

describe('noiseMargin', () => {
  it('is twice the sample standard deviation, with the mean', () => {
    const result = noiseMargin([0.5, 0.52, 0.54]);
    expect(result.mean).toBeCloseTo(0.52, 12);
    expect(result.stdDev).toBeCloseTo(0.02, 12);
    expect(result.margin).toBeCloseTo(0.04, 12);
  });

  it('never goes below the floor', () => {
    expect(noiseMargin([0.7, 0.7, 0.7]).margin).toBe(0.005);
    expect(noiseMargin([0.6, 0.601]).margin).toBe(0.005);
    expect(noiseMargin([0.6, 0.601], 0.01).margin).toBe(0.01);
  });

  it('uses the floor for a single score', () => {
    expect(noiseMargin([0.42])).toEqual({ margin: 0.005, mean: 0.42, stdDev: 0 });
  });

  it('needs a score', () => {
    expect(() => noiseMargin([])).toThrow(RangeError);
  });
});
