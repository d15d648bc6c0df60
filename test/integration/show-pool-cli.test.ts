/**
 * `show` of a pareto run (docs/design/pareto-search.md) through the built CLI, as a person sees it
 * without colour: the merges, the pool with the front drawn at the run's own min_effect (read from
 * its manifest), and each iteration's candidates; `--json` carries the pool. Needs `npm run build`.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POOL_RUN_ID, writePoolRun } from '../helpers/fixture-pool.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const cli = join(root, 'dist/cli/main.js');
const WIDE_TIES = '20261130-0200-cold-email-w1d3';
let runsDir: string;

beforeAll(async () => {
  if (!existsSync(cli)) throw new Error('dist/ is missing: run `npm run build` first');
  runsDir = await mkdtemp(join(tmpdir(), 'ar-show-pool-'));
  await writePoolRun(runsDir);
  await writePoolRun(runsDir, { id: WIDE_TIES, minEffect: 0.05 });
});
afterAll(async () => {
  if (runsDir) await rm(runsDir, { recursive: true, force: true });
});

function run(...args: string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env, AUTORESEARCH_RUNS_DIR: runsDir, NO_COLOR: '1', TZ: 'UTC' };
  delete env['FORCE_COLOR'];
  return execa(process.execPath, [cli, ...args], { env, cwd: runsDir, reject: false });
}

describe('autoresearch show on a pareto run', () => {
  it('prints the merges, the pool with its marks and each candidate with its parent and outcome', async () => {
    const result = await run('show', POOL_RUN_ID);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe('');
    const [header, pool, table] = result.stdout.split('\n\n');
    expect(header).toContain('Iterations  5 finished: 2 keep, 2 pooled, 1 discard');
    expect(header).toContain('Merges      1 attempted, 1 pooled, 1 became the best');
    expect(pool?.split('\n').slice(0, 7)).toEqual([
      'Pool: 5 members, 3 on the front, best p4; 4 train cases, ties within min_effect 0.01',
      'MEMBER  FROM   MADE AT   TRAIN  HOLDOUT  LEADS  DRAWN  HYPOTHESIS',
      'p0      -      baseline  0.500    0.500    0/4      3  the starting prompt',
      "p1 ◆    p0     1         0.675    0.600    1/4      3  Open with the recipient's own pain",
      'p2      p0     2         0.675    0.550    0/4      1  End with one concrete question',
      'p3 ◆    p2     3         0.725    0.600    2/4      2  Name a 15-minute slot next week',
      "p4 ★◆   p1+p3  4 merge   0.875    0.700    2/4      1  Merge p1 and p3: the recipient's pain and a …",
    ]);
    const rows = table?.split('\n').map((line) => line.replace(/\s+/g, ' ').trim()) ?? [];
    expect(rows[0]).toMatch(/^ITER CAND FROM STATUS MEMBER TRAIN/);
    expect(
      rows
        .filter((row) => /^\d+ c\d /.test(row) || /^c\d /.test(row))
        .map((row) => row.split(' ').slice(0, 5).join(' ')),
    ).toEqual([
      '0 c0 - baseline p0',
      '1 c0 p0 keep p1',
      'c1 p0 discard 0.450 -0.050',
      '2 c0 p0 pooled p2',
      'c1 p1 screened_out 0.600 -0.200',
      '3 c0 p2 pooled p3',
      'c1 p1 inconclusive 0.680 +0.005',
      '4 c0 p1+p3 keep p4',
      '5 c0 p4 discard 0.800',
      'c1 p3 error - -',
    ]);
  });

  it("draws the front at the run's own min_effect", async () => {
    const result = await run('show', WIDE_TIES);
    expect(result.exitCode).toBe(0);
    // At min_effect 0.05 p1's 0.80 on t2 ties p4's 0.85: p1 leads two cases.
    expect(result.stdout).toContain('ties within min_effect 0.05');
    expect(result.stdout).toMatch(/^p1 ◆ +p0 +1 +0\.675 +0\.600 +2\/4/m);
  });

  it('carries the pool in --json', async () => {
    const json = JSON.parse((await run('show', POOL_RUN_ID, '--json')).stdout);
    expect(json.pool).toMatchObject({ minEffect: 0.01, front: ['p1', 'p3', 'p4'], best: 'p4' });
    expect(
      json.pool.members.map((m: { id: string; leads: string[] }) => `${m.id}:${m.leads.join(',')}`),
    ).toEqual(['p0:', 'p1:t1', 'p2:', 'p3:t3,t4', 'p4:t1,t2']);
    expect(json.iterations[4].candidates[0]).toMatchObject({
      kind: 'merge',
      parents: ['p1', 'p3'],
      member: 'p4',
    });
  });
});
