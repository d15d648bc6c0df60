import pc from 'picocolors';
import { describe, expect, it } from 'vitest';
import { buildOverview } from '../../../src/report/overview.js';
import { minEffectOf, reviewPool } from '../../../src/report/pool-view.js';
import { reduceRun } from '../../../src/run/reducer.js';
import { describePhase } from '../../../src/ui/format-decision.js';
import { formatShow, formatShowJson } from '../../../src/ui/format-show.js';
import { renderWatchFrame } from '../../../src/ui/watch-view.js';
import { planFixtureRun } from '../../helpers/fixture-run.js';
import { planPoolRun } from '../../helpers/fixture-pool.js';

const plain = pc.createColors(false);
const state = reduceRun(planPoolRun().events);
if (state.pool === null) throw new Error('the pool fixture journals a pool');
const pool = reviewPool(state.pool, 0.01);
const overview = buildOverview(state, { id: 'pool-run', liveLock: false });

describe('reviewPool', () => {
  it('marks the front, the best, what each member leads and the proposals drawn from it', () => {
    expect(pool.cases).toEqual(['t1', 't2', 't3', 't4']);
    expect(pool.front).toEqual(['p1', 'p3', 'p4']);
    expect(pool.best).toBe('p4');
    expect(pool.merges).toEqual({ attempted: 1, pooled: 1, best: 1 });
    expect(
      pool.members.map((m) => [m.id, m.parents.join('+'), m.leads.join(','), m.front, m.best, m.proposals]),
    ).toEqual([
      ['p0', '', '', false, false, 3],
      ['p1', 'p0', 't1', true, false, 3],
      ['p2', 'p0', '', false, false, 1],
      ['p3', 'p2', 't3,t4', true, false, 2],
      ['p4', 'p1+p3', 't1,t2', true, true, 1],
    ]);
    expect(pool.members[4]?.hypothesis).toBe("Merge p1 and p3: the recipient's pain and a concrete slot");
    expect(pool.members[0]?.hypothesis).toBeNull();
  });

  it('counts a score within min_effect of a case’s best as leading it', () => {
    // p1's 0.80 on t2 is 0.05 under p4's 0.85: a tie at min_effect 0.05, not at 0.01.
    const wide = reviewPool(state.pool as NonNullable<typeof state.pool>, 0.05);
    expect(wide.members.find((m) => m.id === 'p1')?.leads).toEqual(['t1', 't2']);
    expect(pool.members.find((m) => m.id === 'p1')?.leads).toEqual(['t1']);
  });

  it('draws the front only from the members since the latest seed (a rebaseline)', () => {
    const base = state.pool as NonNullable<typeof state.pool>;
    const seed = {
      ...base.members[0],
      id: 'p5',
      iteration: 6,
      cases: { t1: 0.3, t2: 0.3, t3: 0.3, t4: 0.3 },
    };
    const rebased = reviewPool(
      { ...base, members: [...base.members, seed as (typeof base.members)[number]] },
      0.01,
    );
    expect(rebased.front).toEqual(['p5']);
    expect(rebased.members.filter((m) => m.leads.length > 0).map((m) => m.id)).toEqual(['p5']);
  });

  it("reads min_effect from the manifest's resolved config, else the schema's default", () => {
    expect(minEffectOf({ search: { min_effect: 0.05 } })).toBe(0.05);
    expect(minEffectOf({ search: {} })).toBe(0.01);
    expect(minEffectOf({ search: { min_effect: 'lots' } })).toBe(0.01);
    expect(minEffectOf(null)).toBe(0.01);
  });
});

describe('formatShow on a pareto run', () => {
  it('adds the merges, the pool with its marks, and each candidate with its parent and outcome', () => {
    const text = formatShow(overview, state.iterations, { width: 140, colors: plain }, pool);
    // Iteration 2's second candidate was screened out: each candidate's screen counts, not the iteration's status.
    expect(text).toContain('Iterations  5 finished: 2 keep, 2 pooled, 1 discard; screening saved 4 calls\n');
    expect(text).toContain('Merges      1 attempted, 1 pooled, 1 became the best');
    expect(text.split('\n\n')[1]).toMatchInlineSnapshot(`
      "Pool: 5 members, 3 on the front, best p4; 4 train cases, ties within min_effect 0.01
      MEMBER  FROM   MADE AT   TRAIN  HOLDOUT  LEADS  DRAWN  HYPOTHESIS
      p0      -      baseline  0.500    0.500    0/4      3  the starting prompt
      p1 ◆    p0     1         0.675    0.600    1/4      3  Open with the recipient's own pain
      p2      p0     2         0.675    0.550    0/4      1  End with one concrete question
      p3 ◆    p2     3         0.725    0.600    2/4      2  Name a 15-minute slot next week
      p4 ★◆   p1+p3  4 merge   0.875    0.700    2/4      1  Merge p1 and p3: the recipient's pain and a concrete slot
      ★ the run's best; ◆ on the front: best, within min_effect, on at least one train case. LEADS: the train cases it leads. DRAWN: proposals
      drawn from it as their parent."
    `);
    expect(text.split('\n\n')[2]).toMatchInlineSnapshot(`
      "ITER  CAND  FROM   STATUS        MEMBER  TRAIN  HOLDOUT   DELTA          INTERVAL     CASES   COST  SECS  COMMIT   HYPOTHESIS
         0  c0    -      baseline      p0      0.500    0.500       -                 -         -  $0.01    12           the starting prompt
         1  c0    p0     keep          p1      0.675    0.600  +0.175   [+0.006,+0.344]  2↑ 0↓ 2=  $0.03    21  1aaaaaa  Open with the recipient'…
            c1    p0     discard               0.450    0.500  -0.050   [-0.083,-0.017]  0↑ 3↓ 1=                        Add three customer names
         2  c0    p0     pooled        p2      0.675    0.550  +0.175   [+0.006,+0.344]  2↑ 0↓ 2=  $0.03    22           End with one concrete qu…
            c1    p1     screened_out          0.600    0.500  -0.200  minibatch -0.200         -                        4 calls saved: Drop the …
         3  c0    p2     pooled        p3      0.725    0.600  +0.050   [+0.017,+0.083]  3↑ 0↓ 1=  $0.03    23           Name a 15-minute slot ne…
            c1    p1     inconclusive          0.680    0.500  +0.005   [-0.028,+0.038]  3↑ 1↓ 0=                        Shorter opening line
         4  c0    p1+p3  keep          p4      0.875    0.700  +0.200   [+0.033,+0.367]  3↑ 0↓ 1=  $0.03    24  4aaaaaa  merge: Merge p1 and p3: …
         5  c0    p4     discard               0.800    0.500  -0.075   [-0.108,-0.042]  0↑ 4↓ 0=  $0.03    25           Mention the company in e…
            c1    p3     error                     -        -       -                 -         -                        provider_error: HTTP 529…
      INTERVAL: the train mean difference against its parent, one-sided 90% bounds. A screened-out row: the mean difference on its minibatch.
      CASES: train cases better ↑, worse ↓, the same =. FROM: the pool member(s) a candidate was made from. MEMBER: the member it became. pooled:
      it beat its parent and entered the pool, but the best did not move; keep: the best moved."
    `);
  });

  it('fits narrow terminals, dropping the least useful columns first', () => {
    for (const width of [100, 80, 60, 44]) {
      const text = formatShow(overview, state.iterations, { width, colors: plain }, pool);
      for (const line of text.split('\n')) expect(line.length).toBeLessThanOrEqual(width);
    }
    const narrow = formatShow(overview, state.iterations, { width: 70, colors: plain }, pool).split('\n\n');
    expect(narrow[1]?.split('\n')[2]).toMatch(/^MEMBER {2}FROM {3}MADE AT {3}TRAIN {2}LEADS {2}HYPOTHESIS$/);
    expect(narrow[2]?.split('\n')[0]).toMatch(/^ITER {2}FROM {3}STATUS {8}TRAIN {3}DELTA {2}HYPOTHESIS$/);
    // A column left out is not explained.
    expect(narrow[1]).not.toContain('DRAWN');
    expect(narrow[2]).not.toContain('MEMBER:');
  });

  it('paints pooled cyan and the best member bold', () => {
    const coloured = formatShow(
      overview,
      state.iterations,
      { width: 140, colors: pc.createColors(true) },
      pool,
    );
    expect(coloured).toContain('\u001b[36mpooled');
    expect(coloured).toContain('\u001b[1mp4 ★◆');
  });

  it('shows no pool for a greedy run', () => {
    const greedy = reduceRun(planFixtureRun().events);
    expect(greedy.pool).toBeNull();
    const text = formatShow(buildOverview(greedy, { id: 'g', liveLock: false }), greedy.iterations, {
      width: 140,
      colors: plain,
    });
    expect(text).not.toMatch(/Pool|Merges|MEMBER|FROM/);
  });
});

describe('formatShowJson on a pareto run', () => {
  it('carries the pool (members, front, best, merges) and each iteration’s candidates', () => {
    const json = JSON.parse(formatShowJson(overview, state.iterations, { pool }));
    expect(Object.keys(json)).toEqual(['format', 'run', 'iterations', 'pool']);
    expect(json.run.merges).toEqual({ attempted: 1, pooled: 1, best: 1 });
    expect(Object.keys(json.pool)).toEqual(['minEffect', 'cases', 'members', 'front', 'best', 'merges']);
    expect(json.pool.front).toEqual(['p1', 'p3', 'p4']);
    expect(json.pool.best).toBe('p4');
    expect(json.pool.members[4]).toMatchObject({
      id: 'p4',
      kind: 'merge',
      parents: ['p1', 'p3'],
      leads: ['t1', 't2'],
      front: true,
      best: true,
      cases: { t1: 0.9, t2: 0.85, t3: 0.9, t4: 0.85 },
    });
    expect(
      json.iterations[2].candidates.map(
        (c: { candidate: number; parents: string[]; status: string; member: string | null }) => [
          c.candidate,
          c.parents,
          c.status,
          c.member,
        ],
      ),
    ).toEqual([
      [0, ['p0'], 'pooled', 'p2'],
      [1, ['p1'], 'screened_out', null],
    ]);
  });

  it('leaves a greedy run’s JSON as it was', () => {
    const greedy = reduceRun(planFixtureRun().events);
    const json = JSON.parse(
      formatShowJson(buildOverview(greedy, { id: 'g', liveLock: false }), greedy.iterations),
    );
    expect(Object.keys(json)).toEqual(['format', 'run', 'iterations']);
    expect(json.run).not.toHaveProperty('merges');
    expect(json.iterations[0]).not.toHaveProperty('candidates');
  });
});

describe('watch on a pareto run', () => {
  it('says how big the pool is, which member is the best and what the merges came to', () => {
    const frame = renderWatchFrame('pool-run', state, new Date('2026-11-30T02:00:00.000Z'), {
      width: 120,
      colors: plain,
    });
    expect(frame).toContain(
      'pool        5 members, best p4; merges: 1 attempted, 1 pooled, 1 became the best',
    );
    expect(frame).toMatch(/^ {3}2 {2}pooled {8}0\.675/m);
  });
});

describe('the merging phase', () => {
  it('says what is merged, in show and watch alike', () => {
    expect(describePhase('merging', false)).toBe('merging two pool members');
  });
});
