import { describe, expect, it } from 'vitest';
import { assignSplits, rankKey } from '../../../../src/experiment/cases/split.js';
import type { Split } from '../../../../src/experiment/types.js';

const ids = (n: number, from = 0) => Array.from({ length: n }, (_, i) => ({ id: `case-${i + from}` }));
const holdoutOf = (cases: { id: string }[], splits: Split[]) =>
  cases.filter((_, i) => splits[i] === 'holdout').map((c) => c.id);

describe('assignSplits', () => {
  it('sends round(share × cases) to holdout', () => {
    for (const [n, share, expected] of [
      [4, 0.25, 1],
      [10, 0.25, 3],
      [10, 0.2, 2],
      [3, 0.25, 1],
      [1, 0.25, 0],
      [20, 0, 0],
    ] as const) {
      const result = assignSplits(ids(n), share, 1);
      expect(result.splits.filter((s) => s === 'holdout')).toHaveLength(expected);
      expect(result.target).toBe(expected);
    }
  });

  it('ranks by sha256(seed:id), not by position', () => {
    const cases = ids(8);
    const forward = assignSplits(cases, 0.25, 3);
    const reversed = [...cases].reverse();
    const backward = assignSplits(reversed, 0.25, 3);
    expect(holdoutOf(reversed, backward.splits).sort()).toEqual(holdoutOf(cases, forward.splits).sort());
    const expected = [...cases]
      .sort((a, b) => (rankKey(3, a.id) < rankKey(3, b.id) ? -1 : 1))
      .slice(0, 2)
      .map((c) => c.id);
    expect(holdoutOf(cases, forward.splits).sort()).toEqual(expected.sort());
  });

  it('changes with the seed', () => {
    const cases = ids(40);
    const a = holdoutOf(cases, assignSplits(cases, 0.25, 1).splits);
    const b = holdoutOf(cases, assignSplits(cases, 0.25, 2).splits);
    expect(a).not.toEqual(b);
  });

  it('moves no existing case except as the count demands when a case is added', () => {
    const seed = 11;
    let cases = ids(3);
    for (let n = 4; n <= 40; n++) {
      const before = assignSplits(cases, 0.25, seed);
      const next = [...cases, { id: `added-${n}` }];
      const after = assignSplits(next, 0.25, seed);
      const oldBefore = new Set(holdoutOf(cases, before.splits));
      const oldAfter = new Set(holdoutOf(next, after.splits).filter((id) => !id.startsWith(`added-${n}`)));
      // The old cases' holdout set is always a prefix of one fixed ranking, so the two sets nest.
      const nested =
        [...oldBefore].every((id) => oldAfter.has(id)) || [...oldAfter].every((id) => oldBefore.has(id));
      expect(nested).toBe(true);
      // At most one old case changes sides per added case.
      const moved =
        [...oldBefore].filter((id) => !oldAfter.has(id)).length +
        [...oldAfter].filter((id) => !oldBefore.has(id)).length;
      expect(moved).toBeLessThanOrEqual(1);
      cases = next;
    }
  });

  it('keeps every case where it was when the count does not change', () => {
    const cases = ids(10);
    const before = assignSplits(cases, 0.25, 5);
    const after = assignSplits([...cases, { id: 'new-one' }], 0.25, 5);
    expect([before.target, after.target]).toEqual([3, 3]);
    const newIsHoldout = after.splits[10] === 'holdout';
    const changed = cases.filter((_, i) => before.splits[i] !== after.splits[i]).length;
    expect(changed).toBe(newIsHoldout ? 1 : 0);
  });

  it('honours explicit labels and counts them towards the holdout total', () => {
    const cases = [{ id: 'a', label: 'holdout' as const }, { id: 'b', label: 'train' as const }, ...ids(6)];
    const result = assignSplits(cases, 0.25, 1);
    expect(result.splits[0]).toBe('holdout');
    expect(result.splits[1]).toBe('train');
    expect(result.splits.filter((s) => s === 'holdout')).toHaveLength(2);
  });

  it('keeps more explicit holdout labels than the share asks for', () => {
    const cases = [{ id: 'a', label: 'holdout' as const }, { id: 'b', label: 'holdout' as const }, ...ids(2)];
    const result = assignSplits(cases, 0.25, 1);
    expect(result.splits).toEqual(['holdout', 'holdout', 'train', 'train']);
  });

  it('always leaves at least one train case', () => {
    for (const n of [1, 2, 3]) {
      const result = assignSplits(ids(n), 0.9, 1);
      expect(result.splits.filter((s) => s === 'train').length).toBeGreaterThanOrEqual(1);
    }
    const two = assignSplits(ids(2), 0.75, 1);
    expect(two.target).toBe(2);
    expect(two.capped).toBe(true);
    expect(two.splits.filter((s) => s === 'holdout')).toHaveLength(1);
  });

  it('may send every unlabelled case to holdout when an explicit train case exists', () => {
    const result = assignSplits([{ id: 't', label: 'train' }, ...ids(2)], 0.9, 1);
    expect(result.splits).toEqual(['train', 'holdout', 'holdout']);
  });

  it('flags labels that leave no train case', () => {
    const result = assignSplits(
      [
        { id: 'a', label: 'holdout' },
        { id: 'b', label: 'holdout' },
      ],
      0.25,
      1,
    );
    expect(result.noTrain).toBe(true);
  });
});
