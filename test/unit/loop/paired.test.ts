import { describe, expect, it } from 'vitest';
import {
  type CaseMean,
  decidePaired,
  detectableEffect,
  type Interval,
  lookConfidence,
  pairCases,
  pairedInterval,
  passesScreen,
  poolCaseMeans,
  studentTCdf,
  studentTQuantile,
} from '../../../src/loop/paired.js';

const means = (entries: Record<string, number>, samples = 1) =>
  new Map<string, CaseMean>(Object.entries(entries).map(([id, mean]) => [id, { mean, samples }]));

const base = {
  holdout: null,
  candidateEligible: true,
  incumbentEligible: true,
  minEffect: 0.01,
  lastLook: false,
};

function interval(differences: number[], confidence = 0.9): Interval {
  return pairedInterval(differences, confidence);
}

describe('Student t', () => {
  // Table values (two decimals of a printed t table are not enough: these are to 4).
  it.each([
    [0.95, 1, 6.3138],
    [0.95, 10, 1.8125],
    [0.9, 5, 1.4759],
    [0.975, 30, 2.0423],
    [0.9, 1, 3.0777],
    [0.8, 11, 0.8755],
    [0.95, 1000, 1.6464],
  ])('the %f quantile with %i degrees of freedom is %f', (p, df, expected) => {
    expect(studentTQuantile(p, df)).toBeCloseTo(expected, 3);
  });

  it('is symmetric and inverts its CDF', () => {
    expect(studentTQuantile(0.1, 7)).toBeCloseTo(-studentTQuantile(0.9, 7), 10);
    expect(studentTCdf(studentTQuantile(0.93, 4), 4)).toBeCloseTo(0.93, 9);
    expect(studentTQuantile(0.5, 3)).toBe(0);
  });

  it('refuses a probability outside (0, 1)', () => {
    expect(() => studentTQuantile(1, 3)).toThrow(RangeError);
    expect(() => studentTQuantile(0.9, 0)).toThrow(RangeError);
  });
});

describe('pairedInterval', () => {
  it('gives the t interval of the mean difference (n = 2)', () => {
    const i = interval([0.1, 0.3]);
    expect(i.n).toBe(2);
    expect(i.mean).toBeCloseTo(0.2, 12);
    const half = (3.0777 * (Math.SQRT2 * 0.1)) / Math.SQRT2;
    expect(i.lo).toBeCloseTo(0.2 - half, 3);
    expect(i.hi).toBeCloseTo(0.2 + half, 3);
  });

  it('collapses to the mean with zero variance', () => {
    const i = interval([0.05, 0.05, 0.05]);
    expect(i.sd).toBeCloseTo(0, 12);
    expect(i.lo).toBeCloseTo(0.05, 12);
    expect(i.hi).toBeCloseTo(0.05, 12);
  });

  it('has no bounds for one case and no mean for none', () => {
    expect(interval([0.4])).toMatchObject({ n: 1, mean: 0.4, lo: null, hi: null });
    expect(interval([])).toMatchObject({ n: 0, lo: null, hi: null });
  });

  it('widens with confidence', () => {
    const d = [0.1, -0.05, 0.2, 0.0, 0.15];
    const narrow = interval(d, 0.8);
    const wide = interval(d, 0.99);
    expect(wide.lo as number).toBeLessThan(narrow.lo as number);
    expect(wide.hi as number).toBeGreaterThan(narrow.hi as number);
  });
});

describe('pairing and pooling', () => {
  it('pairs only the cases both sides scored, in the order asked', () => {
    const pairs = pairCases(['b', 'a', 'z'], means({ a: 0.5, b: 1 }), means({ a: 0.25, b: 1, z: 0 }));
    expect(pairs).toEqual([
      { caseId: 'b', candidate: 1, incumbent: 1, d: 0 },
      { caseId: 'a', candidate: 0.5, incumbent: 0.25, d: 0.25 },
    ]);
  });

  it('pools more samples of a case into one mean weighted by samples (a case stays one cluster)', () => {
    const pooled = poolCaseMeans(means({ a: 0.5 }, 2), means({ a: 1, b: 0 }, 1));
    expect(pooled.get('a')).toEqual({ mean: 2 / 3, samples: 3 });
    expect(pooled.get('b')).toEqual({ mean: 0, samples: 1 });
  });
});

describe('decidePaired', () => {
  const clearGain = interval([0.1, 0.12, 0.09, 0.11, 0.1, 0.1]);

  it('keeps a clear gain above the min effect', () => {
    const d = decidePaired({ ...base, train: clearGain });
    expect(d.status).toBe('keep');
    expect(d.reason).toMatch(/train \+0\.103 \[\+0\.\d+, \+0\.\d+\] over 6 cases: better, no holdout cases/);
  });

  it('discards all ties', () => {
    expect(decidePaired({ ...base, train: interval([0, 0, 0, 0]) }).status).toBe('discard');
  });

  it('discards with n = 2 when both cases got worse by the same amount', () => {
    expect(decidePaired({ ...base, train: interval([-0.1, -0.1]) }).status).toBe('discard');
  });

  it('does not keep one flipped case among ties: it retests, then calls it inconclusive', () => {
    const flipped = interval([1, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    expect(flipped.lo as number).toBeLessThan(0);
    expect(decidePaired({ ...base, train: flipped }).status).toBe('retest');
    expect(decidePaired({ ...base, train: flipped, lastLook: true }).status).toBe('inconclusive');
  });

  it('discards a clear gain that is smaller than the min effect', () => {
    const tiny = interval([0.004, 0.005, 0.006, 0.005]);
    expect(tiny.lo as number).toBeGreaterThan(0);
    expect(decidePaired({ ...base, train: tiny }).status).toBe('discard');
  });

  it('does not keep a gain whose mean reaches the min effect when zero is still inside', () => {
    const d = decidePaired({ ...base, train: interval([0.3, -0.2, 0.1, -0.1]) });
    expect(d.status).toBe('retest');
  });

  it('fails a candidate with a gate failure, whatever its gain', () => {
    expect(decidePaired({ ...base, train: clearGain, candidateEligible: false }).status).toBe('gate_fail');
  });

  it('keeps any eligible candidate over an ineligible incumbent', () => {
    const d = decidePaired({ ...base, train: interval([-0.2, -0.3]), incumbentEligible: false });
    expect(d.status).toBe('keep');
  });

  it('holds a train gain back when the holdout is clearly worse', () => {
    const worse = interval([-0.1, -0.12, -0.09]);
    const d = decidePaired({ ...base, train: clearGain, holdout: worse });
    expect(d.status).toBe('holdout_fail');
    expect(d.reason).toMatch(/holdout -0\.103/);
  });

  it('keeps when the holdout is noisy but not worse beyond the min effect', () => {
    const noisy = interval([0.2, -0.2, 0.05, -0.05]);
    expect(decidePaired({ ...base, train: clearGain, holdout: noisy }).status).toBe('keep');
  });

  it('judges one holdout case by its difference alone', () => {
    expect(decidePaired({ ...base, train: clearGain, holdout: interval([-0.5]) }).status).toBe(
      'holdout_fail',
    );
    expect(decidePaired({ ...base, train: clearGain, holdout: interval([0]) }).status).toBe('keep');
  });
});

describe('looks, screening and power', () => {
  it('splits the error rate between two looks only when there is a retest', () => {
    expect(lookConfidence(0.9, 1)).toBeCloseTo(0.95, 12);
    expect(lookConfidence(0.9, 0)).toBe(0.9);
  });

  it('screens on a positive mean difference', () => {
    expect(passesScreen([0.1, -0.05])).toBe(true);
    expect(passesScreen([0, 0])).toBe(false);
    expect(passesScreen([-0.1, 0.05])).toBe(false);
  });

  it('gives the detectable effect at power 0.8, shrinking with more cases', () => {
    const twelve = detectableEffect(12, 0.15, 0.9) as number;
    const thirty = detectableEffect(30, 0.15, 0.9) as number;
    // (t_0.9,11 + t_0.8,11) · 0.15 / √12 = (1.3634 + 0.8755) · 0.0433
    expect(twelve).toBeCloseTo((1.3634 + 0.8755) * (0.15 / Math.sqrt(12)), 3);
    expect(thirty).toBeLessThan(twelve);
    expect(detectableEffect(1, 0.15, 0.9)).toBeNull();
  });
});
