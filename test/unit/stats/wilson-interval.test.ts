import { describe, expect, it } from 'vitest';
import { wilsonInterval } from '../../../src/stats/wilson-interval.js';

describe('wilsonInterval', () => {
  it('matches hand-computed 95% intervals', () => {
    const [lo, hi] = wilsonInterval(5, 10);
    expect(lo).toBeCloseTo(0.2366, 4);
    expect(hi).toBeCloseTo(0.7634, 4);
  });

  it('stays inside [0, 1] and does not collapse when every trial agrees', () => {
    const [lo, hi] = wilsonInterval(12, 12);
    expect(lo).toBeCloseTo(0.7575, 4);
    expect(hi).toBe(1);
    const [none, upper] = wilsonInterval(0, 6);
    expect(none).toBe(0);
    expect(upper).toBeCloseTo(0.3903, 4);
  });

  it('refuses impossible counts', () => {
    expect(() => wilsonInterval(0, 0)).toThrow(RangeError);
    expect(() => wilsonInterval(4, 3)).toThrow(RangeError);
  });
});
