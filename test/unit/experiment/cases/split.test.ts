import { describe, expect, it } from 'vitest';
import { assignSplits, rankKey, testRankKey } from '../../../../src/experiment/cases/split.js';
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
      const result = assignSplits(ids(n), { holdout: share, test: 0 }, 1);
      expect(result.splits.filter((s) => s === 'holdout')).toHaveLength(expected);
      expect(result.target).toBe(expected);
    }
  });

  it('ranks by sha256(seed:id), not by position', () => {
    const cases = ids(8);
    const forward = assignSplits(cases, { holdout: 0.25, test: 0 }, 3);
    const reversed = [...cases].reverse();
    const backward = assignSplits(reversed, { holdout: 0.25, test: 0 }, 3);
    expect(holdoutOf(reversed, backward.splits).sort()).toEqual(holdoutOf(cases, forward.splits).sort());
    const expected = [...cases]
      .sort((a, b) => (rankKey(3, a.id) < rankKey(3, b.id) ? -1 : 1))
      .slice(0, 2)
      .map((c) => c.id);
    expect(holdoutOf(cases, forward.splits).sort()).toEqual(expected.sort());
  });

  it('changes with the seed', () => {
    const cases = ids(40);
    const a = holdoutOf(cases, assignSplits(cases, { holdout: 0.25, test: 0 }, 1).splits);
    const b = holdoutOf(cases, assignSplits(cases, { holdout: 0.25, test: 0 }, 2).splits);
    expect(a).not.toEqual(b);
  });

  it('moves no existing case except as the count demands when a case is added', () => {
    const seed = 11;
    let cases = ids(3);
    for (let n = 4; n <= 40; n++) {
      const before = assignSplits(cases, { holdout: 0.25, test: 0 }, seed);
      const next = [...cases, { id: `added-${n}` }];
      const after = assignSplits(next, { holdout: 0.25, test: 0 }, seed);
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
    const before = assignSplits(cases, { holdout: 0.25, test: 0 }, 5);
    const after = assignSplits([...cases, { id: 'new-one' }], { holdout: 0.25, test: 0 }, 5);
    expect([before.target, after.target]).toEqual([3, 3]);
    const newIsHoldout = after.splits[10] === 'holdout';
    const changed = cases.filter((_, i) => before.splits[i] !== after.splits[i]).length;
    expect(changed).toBe(newIsHoldout ? 1 : 0);
  });

  it('honours explicit labels and counts them towards the holdout total', () => {
    const cases = [{ id: 'a', label: 'holdout' as const }, { id: 'b', label: 'train' as const }, ...ids(6)];
    const result = assignSplits(cases, { holdout: 0.25, test: 0 }, 1);
    expect(result.splits[0]).toBe('holdout');
    expect(result.splits[1]).toBe('train');
    expect(result.splits.filter((s) => s === 'holdout')).toHaveLength(2);
  });

  it('keeps more explicit holdout labels than the share asks for', () => {
    const cases = [{ id: 'a', label: 'holdout' as const }, { id: 'b', label: 'holdout' as const }, ...ids(2)];
    const result = assignSplits(cases, { holdout: 0.25, test: 0 }, 1);
    expect(result.splits).toEqual(['holdout', 'holdout', 'train', 'train']);
  });

  it('always leaves at least one train case', () => {
    for (const n of [1, 2, 3]) {
      const result = assignSplits(ids(n), { holdout: 0.9, test: 0 }, 1);
      expect(result.splits.filter((s) => s === 'train').length).toBeGreaterThanOrEqual(1);
    }
    const two = assignSplits(ids(2), { holdout: 0.75, test: 0 }, 1);
    expect(two.target).toBe(2);
    expect(two.capped).toBe(true);
    expect(two.splits.filter((s) => s === 'holdout')).toHaveLength(1);
  });

  it('may send every unlabelled case to holdout when an explicit train case exists', () => {
    const result = assignSplits([{ id: 't', label: 'train' }, ...ids(2)], { holdout: 0.9, test: 0 }, 1);
    expect(result.splits).toEqual(['train', 'holdout', 'holdout']);
  });

  it('flags labels that leave no train case', () => {
    const result = assignSplits(
      [
        { id: 'a', label: 'holdout' },
        { id: 'b', label: 'holdout' },
      ],
      { holdout: 0.25, test: 0 },
      1,
    );
    expect(result.noTrain).toBe(true);
  });
});

describe('assignSplits: the sealed test split', () => {
  const byId = (cases: readonly { id: string }[], splits: readonly string[]) =>
    new Map(cases.map((c, i) => [c.id, splits[i]]));

  it('draws round(share × cases) test cases by their own rank, sha256("test:" + seed + ":" + id)', () => {
    const cases = ids(40);
    const result = assignSplits(cases, { holdout: 0.25, test: 0.2 }, 7);
    const test = cases.filter((_, i) => result.splits[i] === 'test').map((c) => c.id);
    expect(test).toHaveLength(8);
    expect(result.testTarget).toBe(8);
    const byTestRank = [...cases]
      .map((c) => c.id)
      .sort((a, b) => (testRankKey(7, a) < testRankKey(7, b) ? -1 : 1))
      .slice(0, 8);
    expect(new Set(test)).toEqual(new Set(byTestRank));
    // Its own rank: not the holdout's first eight.
    const byHoldoutRank = [...cases]
      .map((c) => c.id)
      .sort((a, b) => (rankKey(7, a) < rankKey(7, b) ? -1 : 1))
      .slice(0, 8);
    expect(new Set(test)).not.toEqual(new Set(byHoldoutRank));
  });

  it('never moves a case between train and holdout, whatever the test share', () => {
    for (const seed of [1, 2, 3]) {
      const cases = ids(60);
      const without = byId(cases, assignSplits(cases, { holdout: 0.3, test: 0 }, seed).splits);
      expect([...without.values()]).not.toContain('test');
      for (const share of [0.1, 0.2, 0.5, 0.6]) {
        const withTest = byId(cases, assignSplits(cases, { holdout: 0.3, test: share }, seed).splits);
        let drawn = 0;
        for (const [id, split] of withTest) {
          if (split === 'test') drawn += 1;
          else expect(split).toBe(without.get(id));
        }
        expect(drawn).toBe(Math.round(share * 60));
      }
    }
  });

  it('a growing test share only adds test cases', () => {
    const cases = ids(50);
    const small = assignSplits(cases, { holdout: 0.2, test: 0.1 }, 4).splits;
    const large = assignSplits(cases, { holdout: 0.2, test: 0.3 }, 4).splits;
    small.forEach((split, i) => {
      if (split === 'test') expect(large[i]).toBe('test');
    });
  });

  it('honours `split: test` labels, counts them toward the share and never draws a pinned case', () => {
    const cases = [
      { id: 'pinned-test', label: 'test' as const },
      { id: 'pinned-train', label: 'train' as const },
      { id: 'pinned-holdout', label: 'holdout' as const },
      ...ids(17),
    ];
    const result = assignSplits(cases, { holdout: 0.2, test: 0.2 }, 1);
    expect(result.splits.slice(0, 3)).toEqual(['test', 'train', 'holdout']);
    expect(result.splits.filter((s) => s === 'test')).toHaveLength(4);
    // With no share, the label alone makes the case test and moves no other case.
    const labelled = assignSplits(cases, { holdout: 0.2, test: 0 }, 1).splits;
    const unlabelled = assignSplits(
      [{ id: 'pinned-test' }, ...cases.slice(1)],
      { holdout: 0.2, test: 0 },
      1,
    ).splits;
    expect(labelled[0]).toBe('test');
    expect(labelled.slice(1)).toEqual(unlabelled.slice(1));
  });

  it('flags a test draw or labels that leave no train case', () => {
    const all = assignSplits(
      [
        { id: 'a', label: 'holdout' },
        { id: 'b', label: 'test' },
      ],
      { holdout: 0, test: 0 },
      1,
    );
    expect(all.noTrain).toBe(true);
    const drawn = assignSplits(ids(2), { holdout: 0.5, test: 0.5 }, 1);
    expect(drawn.splits.filter((s) => s === 'train')).toHaveLength(0);
    expect(drawn.noTrain).toBe(true);
  });
});
