import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildReportData } from '../../../src/report/build-report-data.js';
import { buildLineage } from '../../../src/report/pool-geometry.js';
import { readRunFolder } from '../../../src/report/read-run-folder.js';
import type { ReportData } from '../../../src/report/report-data.js';
import { ITERATION_STATUSES } from '../../../src/run/vocabulary.js';
import { writePoolRun } from '../../helpers/fixture-pool.js';
import { writeFixtureRun } from '../../helpers/fixture-run.js';

const context = { now: new Date('2026-11-30T07:00:00.000Z'), toolVersion: '0.1.0' };
let runsDir: string;
let pareto: ReportData;
let greedy: ReportData;

beforeAll(async () => {
  runsDir = await mkdtemp(join(tmpdir(), 'ar-pool-report-'));
  pareto = buildReportData(await readRunFolder((await writePoolRun(runsDir)).dir), context);
  greedy = buildReportData(await readRunFolder((await writeFixtureRun(runsDir)).dir), context);
});
afterAll(async () => {
  await rm(runsDir, { recursive: true, force: true });
});

describe('buildLineage', () => {
  it('puts p0 at the root, each member a column right of its deepest parent, a merge joined to both', () => {
    const lineage = buildLineage([
      { id: 'p0', parents: [] },
      { id: 'p1', parents: ['p0'] },
      { id: 'p2', parents: ['p0'] },
      { id: 'p3', parents: ['p2'] },
      { id: 'p4', parents: ['p1', 'p3'] },
    ]);
    const at = Object.fromEntries(lineage.nodes.map((n) => [n.id, n]));
    expect(lineage.nodes.map((n) => [n.id, n.depth])).toEqual([
      ['p0', 0],
      ['p1', 1],
      ['p2', 1],
      ['p3', 2],
      ['p4', 3],
    ]);
    // Rows follow first parents: p4 (under p1) is p1's only child and shares its row; p0 is centred.
    expect(at.p4?.y).toBe(at.p1?.y);
    expect(at.p3?.y).toBe(at.p2?.y);
    expect(at.p0?.y).toBe(((at.p1?.y ?? 0) + (at.p2?.y ?? 0)) / 2);
    expect(lineage.edges.map((e) => [e.from, e.to, e.merge])).toEqual([
      ['p0', 'p1', false],
      ['p0', 'p2', false],
      ['p2', 'p3', false],
      ['p1', 'p4', false],
      ['p3', 'p4', true],
    ]);
    // Every node lies inside the drawing, and an edge starts at its parent's right side.
    for (const n of lineage.nodes) {
      expect(n.x - lineage.radius).toBeGreaterThanOrEqual(0);
      expect(n.x + lineage.radius).toBeLessThanOrEqual(lineage.width);
      expect(n.y - lineage.radius).toBeGreaterThanOrEqual(0);
      expect(n.y + lineage.radius).toBeLessThanOrEqual(lineage.height);
    }
    expect(lineage.edges[0]?.path.startsWith(`M${(at.p0?.x ?? 0) + lineage.radius},${at.p0?.y}`)).toBe(true);
  });

  it('draws a lone baseline', () => {
    const lineage = buildLineage([{ id: 'p0', parents: [] }]);
    expect(lineage.nodes).toHaveLength(1);
    expect(lineage.edges).toEqual([]);
    expect(lineage.height).toBeGreaterThan(2 * lineage.radius);
  });
});

describe('buildReportData on a pareto run', () => {
  it('carries the pool: members with their leads and per-case scores, front, best, merges, candidates', () => {
    const pool = pareto.pool;
    if (!pool) throw new Error('a pareto run has a pool');
    expect(pool.cases).toEqual(['t1', 't2', 't3', 't4']);
    expect(pool.front).toEqual(['p1', 'p3', 'p4']);
    expect(pool.best).toBe('p4');
    expect(pool.minEffect).toBe(0.01);
    expect(pool.merges).toEqual({ attempted: 1, pooled: 1, best: 1 });
    expect(pool.members.map((m) => [m.id, m.leads])).toEqual([
      ['p0', []],
      ['p1', ['t1']],
      ['p2', []],
      ['p3', ['t3', 't4']],
      ['p4', ['t1', 't2']],
    ]);
    expect(pool.members[3]?.cases).toEqual({ t1: 0.5, t2: 0.55, t3: 0.95, t4: 0.9 });
    expect(pool.lineage.nodes.map((n) => n.id)).toEqual(['p0', 'p1', 'p2', 'p3', 'p4']);
    expect(
      pool.candidates.map((c) => `${c.iteration}.${c.candidate} ${c.parents.join('+')} ${c.status}`),
    ).toEqual([
      '1.0 p0 pooled',
      '1.1 p0 discard',
      '2.0 p0 pooled',
      '2.1 p1 screened_out',
      '3.0 p2 pooled',
      '3.1 p1 inconclusive',
      '4.0 p1+p3 pooled',
      '5.0 p4 discard',
      '5.1 p3 error',
    ]);
    expect(pool.candidates[6]?.best).toEqual({
      against: 'p1',
      moved: true,
      reason: 'a clear gain over the best',
    });
    expect(pool.candidates[8]?.message).toBe('provider_error: HTTP 529 overloaded after 4 attempts');
    expect(pareto.overview.merges).toEqual({ attempted: 1, pooled: 1, best: 1 });
    expect(pareto.overview.counts.pooled).toBe(2);
  });

  it('diffs each candidate against the member it came from, not the latest keep', () => {
    const third = pareto.iterations.find((i) => i.iteration === 3);
    // p3 came from p2 (iteration 2), though the best then was p1 (iteration 1).
    expect(third?.lineage).toEqual({ from: ['p2'], member: 'p3', kind: 'mutation' });
    expect(third?.parent).toBe(2);
    expect(third?.diff?.parentMember).toBe('p2');
    expect(third?.diff?.hunks.flatMap((h) => h.lines.map((l) => `${l.op} ${l.text}`))).toEqual(
      expect.arrayContaining([
        'remove End with one concrete question',
        'add Name a 15-minute slot next week',
      ]),
    );
    const merge = pareto.iterations.find((i) => i.iteration === 4);
    expect(merge?.lineage).toEqual({ from: ['p1', 'p3'], member: 'p4', kind: 'merge' });
    expect(merge?.diff?.parentMember).toBe('p1');
    expect(pareto.iterations[0]?.lineage).toEqual({ from: [], member: 'p0', kind: 'seed' });
  });
});

describe('the chart of a pareto run', () => {
  it("places each whisker at the parent member's score: its middle is the candidate's own score", () => {
    // Iteration 2's candidate came from p0 (0.500) while the best was p1 (0.675).
    for (const iteration of [1, 2, 3, 4]) {
      const whisker = pareto.chart.intervals.find((i) => i.iteration === iteration);
      const point = pareto.chart.points.find((p) => p.iteration === iteration);
      expect(whisker?.mid).toBeCloseTo(point?.y ?? Number.NaN, 0);
    }
  });
});

describe('buildReportData on a greedy run', () => {
  it('has no pool and no lineage', () => {
    expect(greedy.pool).toBeNull();
    expect(greedy.overview).not.toHaveProperty('merges');
    expect(greedy.iterations.some((i) => i.lineage !== undefined)).toBe(false);
    expect(greedy.iterations.some((i) => i.diff?.parentMember !== undefined)).toBe(false);
  });
});

describe('the report stylesheet', () => {
  it('gives every iteration status its colour (pooled too)', () => {
    const css = readFileSync(
      fileURLToPath(new URL('../../../src/report/browser/report.css', import.meta.url)),
      'utf8',
    );
    for (const status of ITERATION_STATUSES) expect(css).toMatch(new RegExp(`--s-${status}: #[0-9a-f]{6};`));
  });
});
