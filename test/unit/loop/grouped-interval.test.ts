/**
 * The interval on group means (docs/design/paired-acceptance.md, "Groups of cases") at its edges:
 * no groups, one group, two groups, equal and unequal groups, all ties, and the property it is
 * for — copies of a group's cases add no certainty.
 */
import { describe, expect, it } from 'vitest';
import {
  decidePaired,
  describeInterval,
  groupedInterval,
  pairedInterval,
  studentTQuantile,
} from '../../../src/loop/paired.js';

const C = 0.9;
const inGroups = (groups: Record<string, number[]>) =>
  Object.entries(groups).flatMap(([group, ds]) => ds.map((d) => ({ d, group })));

describe('groupedInterval', () => {
  it('without any group is the interval over cases, with no groups field', () => {
    const ds = [0.1, -0.05, 0.2, 0.05];
    const grouped = groupedInterval(
      ds.map((d) => ({ d })),
      C,
    );
    expect(grouped).toEqual(pairedInterval(ds, C));
    expect(grouped.groups).toBeUndefined();
  });

  it('with one group has a mean but no bounds: one group says nothing about the spread', () => {
    const one = groupedInterval(inGroups({ a: [0.1, 0.3, 0.2] }), C);
    expect(one).toMatchObject({ n: 3, groups: 1, sd: 0, lo: null, hi: null });
    expect(one.mean).toBeCloseTo(0.2, 12);
    // Neither a keep nor a discard can come of it: the rule can only call it unclear.
    const decision = decidePaired({
      train: one,
      holdout: null,
      candidateEligible: true,
      incumbentEligible: true,
      minEffect: 0.01,
      lastLook: true,
    });
    expect(decision.status).toBe('inconclusive');
    expect(decision.reason).toContain('over 3 cases in 1 group');
  });

  it('with equal groups is the t interval on the group means with G − 1 degrees of freedom', () => {
    const grouped = groupedInterval(inGroups({ a: [0.1, 0.3], b: [0.2, 0.4], c: [0, 0.2] }), C);
    const onMeans = pairedInterval([0.2, 0.3, 0.1], C);
    expect(grouped).toMatchObject({ n: 6, groups: 3 });
    for (const key of ['mean', 'sd', 'lo', 'hi'] as const)
      expect(grouped[key] as number).toBeCloseTo(onMeans[key] as number, 12);
    expect(grouped.sd).toBeCloseTo(0.1, 12);
    const half = studentTQuantile(C, 2) * (0.1 / Math.sqrt(3));
    expect(grouped.lo as number).toBeCloseTo(0.2 - half, 12);
    expect(grouped.hi as number).toBeCloseTo(0.2 + half, 12);
  });

  it('with n = 2 groups uses 1 degree of freedom: t = 3.078 at 90%', () => {
    const grouped = groupedInterval(inGroups({ a: [0.1, 0.1, 0.1], b: [0.3, 0.3, 0.3] }), C);
    expect(grouped).toMatchObject({ n: 6, groups: 2 });
    expect(grouped.mean).toBeCloseTo(0.2, 12);
    const sd = Math.SQRT2 * 0.1;
    expect(grouped.sd).toBeCloseTo(sd, 12);
    expect(grouped.lo as number).toBeCloseTo(0.2 - 3.0776835 * (sd / Math.SQRT2), 6);
    // As independent cases the same six differences would look like a clear gain.
    expect(pairedInterval([0.1, 0.1, 0.1, 0.3, 0.3, 0.3], C).lo as number).toBeGreaterThan(0.1);
    expect(grouped.lo as number).toBeLessThan(0);
  });

  it('with all ties is a zero-width interval at 0, which discards for any positive min_effect', () => {
    const ties = groupedInterval(inGroups({ a: [0, 0], b: [0, 0, 0], c: [0] }), C);
    expect(ties).toEqual({ n: 6, mean: 0, sd: 0, lo: 0, hi: 0, groups: 3 });
    const decision = decidePaired({
      train: ties,
      holdout: null,
      candidateEligible: true,
      incumbentEligible: true,
      minEffect: 0.01,
      lastLook: false,
    });
    expect(decision.status).toBe('discard');
  });

  it('with unequal groups weighs each group the same, whatever its size', () => {
    const grouped = groupedInterval(inGroups({ big: [0.3, 0.3, 0.3, 0.3, 0.3], small: [-0.1] }), C);
    // The case mean would be (1.5 − 0.1)/6 ≈ 0.233; the group mean is (0.3 − 0.1)/2.
    expect(grouped.mean).toBeCloseTo(0.1, 12);
    expect(grouped).toMatchObject({ n: 6, groups: 2 });
    expect(describeInterval(grouped)).toMatch(/over 6 cases in 2 groups$/);
  });

  it('counts a case without a group as a group of its own', () => {
    const grouped = groupedInterval(
      [{ d: 0.1, group: 'a' }, { d: 0.3, group: 'a' }, { d: 0.5 }, { d: -0.1 }],
      C,
    );
    expect(grouped).toEqual({ ...pairedInterval([0.2, 0.5, -0.1], C), n: 4, groups: 3 });
  });

  it('gains no certainty from copies of a group: related cases are not more evidence', () => {
    const base = { a: [0.12], b: [0.05], c: [-0.02], d: [0.09] };
    const copied = Object.fromEntries(
      Object.entries(base).map(([g, [d]]) => [g, Array(10).fill(d as number)]),
    );
    const once = groupedInterval(inGroups(base), C);
    const tenTimes = groupedInterval(inGroups(copied), C);
    expect(tenTimes.lo as number).toBeCloseTo(once.lo as number, 12);
    expect(tenTimes.hi as number).toBeCloseTo(once.hi as number, 12);
    // Taken as 40 independent cases the copies would narrow the interval about √10 times.
    const asCases = pairedInterval(
      inGroups(copied).map((x) => x.d),
      C,
    );
    expect((asCases.hi as number) - (asCases.lo as number)).toBeLessThan(
      ((once.hi as number) - (once.lo as number)) / 3,
    );
  });
});
