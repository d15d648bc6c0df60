import { describe, expect, it } from 'vitest';
import {
  ancestorsOf,
  chooseMergePair,
  chooseParents,
  frontOf,
  frontWeights,
  liveMembers,
  mergeKey,
  nearestCommonAncestor,
  type PoolMemberView,
  pickWeighted,
  seededUniform,
} from '../../../src/search/pool.js';
import { memberNumber, nextMemberId } from '../../../src/run/member-id.js';

const CASES = ['a', 'b', 'c', 'd'];

function member(id: string, parents: string[], cases: Record<string, number> = {}): PoolMemberView {
  return { id, parents, cases };
}

describe('frontOf', () => {
  it('puts every member leading a case on the front, with the cases it leads', () => {
    const members = [
      member('p0', [], { a: 0.5, b: 0.5, c: 0.5, d: 0.5 }),
      member('p1', ['p0'], { a: 0.9, b: 0.4, c: 0.5, d: 0.2 }),
      member('p2', ['p0'], { a: 0.3, b: 0.8, c: 0.5, d: 0.1 }),
    ];
    const front = frontOf(members, CASES, 0.01);
    expect(front.members).toEqual(['p0', 'p1', 'p2']);
    expect(front.leads.get('p0')).toEqual(['c', 'd']);
    expect(front.leads.get('p1')).toEqual(['a', 'c']);
    expect(front.leads.get('p2')).toEqual(['b', 'c']);
    expect(frontWeights(front)).toEqual({ p0: 2, p1: 2, p2: 2 });
  });

  it('counts scores within min_effect of a case best as ties, the edge included', () => {
    const members = [
      member('p0', [], { a: 0.7, b: 0.5 }),
      member('p1', ['p0'], { a: 0.75, b: 0.6 }),
      member('p2', ['p0'], { a: 0.8, b: 0.49 }),
    ];
    // a: best 0.8; p1 at exactly 0.05 below ties, p0 at 0.1 below does not.
    const front = frontOf(members, ['a', 'b'], 0.05);
    expect(front.leads.get('p1')).toEqual(['a', 'b']);
    expect(front.leads.get('p2')).toEqual(['a']);
    expect(front.members).toEqual(['p1', 'p2']);
    // With a stricter min_effect p1 no longer ties on a.
    expect(frontOf(members, ['a', 'b'], 0.01).leads.get('p1')).toEqual(['b']);
  });

  it('leaves a single member on the front when it dominates every case', () => {
    const members = [
      member('p0', [], { a: 0.2, b: 0.2, c: 0.2, d: 0.2 }),
      member('p1', ['p0'], { a: 0.9, b: 0.8, c: 0.7, d: 0.6 }),
      member('p2', ['p1'], { a: 0.5, b: 0.5, c: 0.5, d: 0.5 }),
    ];
    const front = frontOf(members, CASES, 0.01);
    expect(front.members).toEqual(['p1']);
    expect(front.leads.get('p1')).toEqual(CASES);
    expect(chooseParents(front, 3, 7, 1).map((d) => d.parent)).toEqual(['p1', 'p1', 'p1']);
  });

  it('works on one case', () => {
    const members = [member('p0', [], { a: 0.4 }), member('p1', ['p0'], { a: 0.6 })];
    const front = frontOf(members, ['a'], 0.01);
    expect(front.members).toEqual(['p1']);
    expect(frontWeights(front)).toEqual({ p1: 1 });
  });

  it('skips cases no member scored and counts only the cases named', () => {
    const members = [member('p0', [], { a: 0.4, z: 1 }), member('p1', ['p0'], { a: 0.3, b: 0.9 })];
    const front = frontOf(members, ['a', 'b', 'c'], 0.01);
    expect(front.leads.get('p0')).toEqual(['a']);
    expect(front.leads.get('p1')).toEqual(['b']);
    // `z` is not a train case here: p0's perfect score on it counts for nothing.
    expect(frontWeights(front)).toEqual({ p0: 1, p1: 1 });
    expect(frontOf(members, [], 0.01).members).toEqual([]);
  });
});

describe('parent choice', () => {
  const front = {
    members: ['p0', 'p1', 'p2'],
    leads: new Map([
      ['p0', ['a']],
      ['p1', ['a', 'b', 'c']],
      ['p2', ['d', 'e']],
    ]),
  };

  it('draws parents in proportion to the cases they lead', () => {
    const counts: Record<string, number> = { p0: 0, p1: 0, p2: 0 };
    const iterations = 6000;
    for (let iteration = 1; iteration <= iterations; iteration++) {
      const [draw] = chooseParents(front, 1, 42, iteration);
      counts[draw?.parent as string] = (counts[draw?.parent as string] ?? 0) + 1;
    }
    // Shares 1/6, 3/6, 2/6; the binomial sd at n = 6000 is under 0.007, so 0.025 is > 3.5 sd.
    expect(Math.abs((counts['p0'] as number) / iterations - 1 / 6)).toBeLessThan(0.025);
    expect(Math.abs((counts['p1'] as number) / iterations - 3 / 6)).toBeLessThan(0.025);
    expect(Math.abs((counts['p2'] as number) / iterations - 2 / 6)).toBeLessThan(0.025);
  });

  it('gives the candidates of one iteration different parents, then starts over', () => {
    for (let iteration = 1; iteration <= 50; iteration++) {
      const parents = chooseParents(front, 3, 9, iteration).map((d) => d.parent);
      expect(new Set(parents).size).toBe(3);
      const five = chooseParents(front, 5, 9, iteration).map((d) => d.parent);
      expect(new Set(five.slice(0, 3)).size).toBe(3);
      expect(five.slice(0, 3)).toEqual(parents);
    }
  });

  it('is deterministic in (seed, iteration, candidate) and journals its draw', () => {
    const first = chooseParents(front, 2, 5, 3);
    expect(chooseParents(front, 2, 5, 3)).toEqual(first);
    expect(first.map((d) => d.candidate)).toEqual([0, 1]);
    expect(first[0]?.draw).toBe(seededUniform('parent:5:3:0'));
    expect(first[1]?.draw).toBe(seededUniform('parent:5:3:1'));
    // The journaled draw picks the same parent again (what resume relies on).
    expect(pickWeighted(front.members, frontWeights(front), first[0]?.draw as number)).toBe(first[0]?.parent);
    const other = Array.from({ length: 20 }, (_, i) => chooseParents(front, 1, 6, i + 1)[0]?.parent);
    const same = Array.from({ length: 20 }, (_, i) => chooseParents(front, 1, 5, i + 1)[0]?.parent);
    expect(other).not.toEqual(same);
  });

  it('refuses an empty front', () => {
    expect(() => chooseParents({ members: [], leads: new Map() }, 1, 1, 1)).toThrow(/front is empty/);
  });

  it('picks by cumulative weight, and uniformly when every weight is zero', () => {
    const weights = { p0: 1, p1: 3 };
    expect(pickWeighted(['p0', 'p1'], weights, 0)).toBe('p0');
    expect(pickWeighted(['p0', 'p1'], weights, 0.2499)).toBe('p0');
    expect(pickWeighted(['p0', 'p1'], weights, 0.25)).toBe('p1');
    expect(pickWeighted(['p0', 'p1'], weights, 0.9999)).toBe('p1');
    expect(pickWeighted(['p0', 'p1'], { p0: 0, p1: 0 }, 0.6)).toBe('p1');
  });

  it('draws uniforms in [0, 1) from the key alone', () => {
    const draws = Array.from({ length: 1000 }, (_, i) => seededUniform(`k:${i}`));
    expect(draws.every((d) => d >= 0 && d < 1)).toBe(true);
    expect(seededUniform('k:1')).toBe(draws[1]);
    const mean = draws.reduce((s, d) => s + d, 0) / draws.length;
    expect(Math.abs(mean - 0.5)).toBeLessThan(0.05);
  });
});

describe('lineage', () => {
  // p0 ─ p1 ─ p3 ─ p5
  //   └─ p2 ─ p4 ┘      (p5 merges p3 and p4), p6 from p2
  const lineage = [
    member('p0', []),
    member('p1', ['p0']),
    member('p2', ['p0']),
    member('p3', ['p1']),
    member('p4', ['p2']),
    member('p5', ['p3', 'p4']),
    member('p6', ['p2']),
  ];

  it('lists every ancestor with its shortest distance, itself included', () => {
    expect(Object.fromEntries(ancestorsOf(lineage, 'p3'))).toEqual({ p3: 0, p1: 1, p0: 2 });
    expect(Object.fromEntries(ancestorsOf(lineage, 'p5'))).toEqual({
      p5: 0,
      p3: 1,
      p4: 1,
      p1: 2,
      p2: 2,
      p0: 3,
    });
    expect(Object.fromEntries(ancestorsOf(lineage, 'p0'))).toEqual({ p0: 0 });
  });

  it('finds the nearest common ancestor through a merge', () => {
    expect(nearestCommonAncestor(lineage, 'p3', 'p4')).toBe('p0');
    expect(nearestCommonAncestor(lineage, 'p5', 'p6')).toBe('p2');
    expect(nearestCommonAncestor(lineage, 'p3', 'p5')).toBe('p3');
    expect(nearestCommonAncestor(lineage, 'p6', 'p6')).toBe('p6');
    expect(nearestCommonAncestor([member('p0', []), member('q1', [])], 'p0', 'q1')).toBeNull();
  });

  it('breaks a tie in distance by the lower id, numerically', () => {
    // p12 merges p2 and p10, both children of p0; p13 merges them too: p2 and p10 are both
    // at distance 2 from the pair; p2 < p10 even though "p10" < "p2" as text.
    const members = [
      member('p0', []),
      member('p2', ['p0']),
      member('p10', ['p0']),
      member('p12', ['p10', 'p2']),
      member('p13', ['p2', 'p10']),
    ];
    expect(nearestCommonAncestor(members, 'p12', 'p13')).toBe('p2');
    expect(nearestCommonAncestor(members, 'p13', 'p12')).toBe('p2');
  });

  it('takes a lowest common ancestor even when an older one is fewer steps away', () => {
    // p1 ─ p2 ─ p3 ─ p4 ─ p5 (a long line), p6 from p1; p7 merges p5 and p6; p8 from p2.
    // p1 is 2 steps from p7 (through p6) and 2 from p8: 4; p2 is 4 + 1 = 5. p2 descends from p1,
    // so p2 is the lowest common ancestor and the merge base.
    const members = [
      member('p0', []),
      member('p1', ['p0']),
      member('p2', ['p1']),
      member('p3', ['p2']),
      member('p4', ['p3']),
      member('p5', ['p4']),
      member('p6', ['p1']),
      member('p7', ['p5', 'p6']),
      member('p8', ['p2']),
    ];
    expect(nearestCommonAncestor(members, 'p7', 'p8')).toBe('p2');
  });
});

describe('chooseMergePair', () => {
  const members = [
    member('p0', [], { a: 0.5, b: 0.5, c: 0.5, d: 0.5 }),
    member('p1', ['p0'], { a: 0.9, b: 0.5, c: 0.5, d: 0.2 }),
    member('p2', ['p0'], { a: 0.5, b: 0.9, c: 0.9, d: 0.2 }),
    member('p3', ['p1'], { a: 0.9, b: 0.5, c: 0.5, d: 0.3 }),
  ];

  it('joins complementary front members at their nearest common ancestor, the widest pair first', () => {
    const front = frontOf(members, CASES, 0.01);
    expect(front.members).toEqual(['p0', 'p1', 'p2', 'p3']);
    // p0 leads only d (with nothing else), p1/p3 lead a, p2 leads b and c.
    // p1–p3 is an ancestor pair; p0 is everyone's ancestor. Left: p1+p2 and p2+p3 (3 cases each).
    expect(chooseMergePair(members, front)).toEqual({ a: 'p1', b: 'p2', ancestor: 'p0' });
    expect(chooseMergePair(members, front, new Set([mergeKey('p2', 'p1')]))).toEqual({
      a: 'p2',
      b: 'p3',
      ancestor: 'p0',
    });
    expect(chooseMergePair(members, front, new Set(['p1+p2', 'p2+p3']))).toBeNull();
  });

  it('needs each member to lead a case the other does not', () => {
    const nested = [
      member('p0', [], { a: 0.1, b: 0.1 }),
      member('p1', ['p0'], { a: 0.9, b: 0.5 }),
      // p2 ties p1 on a and leads b too: p1 leads nothing p2 does not.
      member('p2', ['p0'], { a: 0.9, b: 0.9 }),
    ];
    const front = frontOf(nested, ['a', 'b'], 0.01);
    expect(front.members).toEqual(['p1', 'p2']);
    expect(chooseMergePair(nested, front)).toBeNull();
  });

  it('never pairs a member with its own ancestor, even when merges make it look distant', () => {
    // p6 descends from p1 four steps down a line, and merges in p5 (a branch from p0): by summed
    // distance p0 (1 + 2) is nearer than p1 (0 + 4), yet p1 is p6's ancestor and a merge of the
    // two has nothing to add.
    const lineage = [
      member('p0', [], { a: 0.1, b: 0.1, c: 0.1 }),
      member('p1', ['p0'], { a: 0.9, b: 0.1, c: 0.1 }),
      member('p2', ['p1'], { a: 0.1, b: 0.1, c: 0.1 }),
      member('p3', ['p2'], { a: 0.1, b: 0.1, c: 0.1 }),
      member('p4', ['p3'], { a: 0.1, b: 0.1, c: 0.1 }),
      member('p5', ['p0'], { a: 0.1, b: 0.1, c: 0.1 }),
      member('p6', ['p4', 'p5'], { a: 0.1, b: 0.9, c: 0.1 }),
    ];
    const front = frontOf(lineage, ['a', 'b', 'c'], 0.01);
    expect(front.leads.get('p1')).toEqual(['a', 'c']);
    expect(front.leads.get('p6')).toEqual(['b', 'c']);
    expect(chooseMergePair(lineage, front)).toBeNull();
  });
});

describe('member ids', () => {
  it('numbers members in order and remembers a merge by its pair, lower id first', () => {
    expect(nextMemberId([])).toBe('p0');
    expect(nextMemberId([{ id: 'p0' }, { id: 'p9' }, { id: 'p3' }])).toBe('p10');
    expect(memberNumber('p12')).toBe(12);
    expect(mergeKey('p10', 'p9')).toBe('p9+p10');
    expect(mergeKey('p2', 'p11')).toBe('p2+p11');
  });
});

describe('liveMembers', () => {
  it('is the whole pool until a rebaseline journals a new seed, then that seed and what came after', () => {
    const once = [
      { id: 'p0', kind: 'seed', iteration: 0 },
      { id: 'p1', kind: 'mutation', iteration: 1 },
    ];
    expect(liveMembers(once).map((m) => m.id)).toEqual(['p0', 'p1']);
    const rebased = [
      ...once,
      { id: 'p2', kind: 'seed', iteration: 2 },
      { id: 'p3', kind: 'merge', iteration: 3 },
    ];
    expect(liveMembers(rebased).map((m) => m.id)).toEqual(['p2', 'p3']);
    expect(liveMembers([])).toEqual([]);
  });

  it("keeps every seed of one baseline (a pool start's) on the scale they share", () => {
    const pooled = [
      { id: 'p0', kind: 'seed', iteration: 0 },
      { id: 'p1', kind: 'seed', iteration: 0 },
      { id: 'p2', kind: 'seed', iteration: 0 },
      { id: 'p3', kind: 'mutation', iteration: 1 },
    ];
    expect(liveMembers(pooled).map((m) => m.id)).toEqual(['p0', 'p1', 'p2', 'p3']);
    const rebased = [...pooled, { id: 'p4', kind: 'seed', iteration: 5 }];
    expect(liveMembers(rebased).map((m) => m.id)).toEqual(['p4']);
  });
});
