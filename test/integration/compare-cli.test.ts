/**
 * `compare <runA> <runB>` through the built CLI on two real runs of the shipped `cold-email`
 * experiment under the simulated provider: one with an iteration budget of 0 (whose final check evaluated the
 * baseline alone), one of a single iteration. As a person sees them without colour, and as
 * JSON.
 * Needs `npm run build` first.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, REPO_ROOT, requireBuiltCli, runBuiltCli, runFolders } from '../helpers/built-cli.js';
import { createTempRepo, readTreeBytes, type TempRepo } from '../helpers/temp-repo.js';

const EXPERIMENTS = path.join(REPO_ROOT, 'experiments');
let repo: TempRepo;
let env: NodeJS.ProcessEnv;
let first: string;
let second: string;

function run(...args: string[]) {
  return runBuiltCli(args, { cwd: repo.dir, env: { ...env, NO_COLOR: '1', TZ: 'UTC' } });
}

beforeAll(async () => {
  requireBuiltCli();
  const files: Record<string, string> = {};
  for (const [file, bytes] of await readTreeBytes(path.join(EXPERIMENTS, 'cold-email')))
    files[`experiments/cold-email/${file}`] = bytes.toString('utf8');
  for (const [file, bytes] of await readTreeBytes(path.join(REPO_ROOT, 'rubrics')))
    files[`rubrics/${file}`] = bytes.toString('utf8');
  repo = await createTempRepo({ files });
  env = cleanEnv(repo.env);
  // Each run's id is the folder it added: two ids made in the same minute sort by their random tail.
  const runsDir = path.join(repo.dir, 'runs');
  const newRun = async (...args: string[]) => {
    const before = new Set(runFolders(runsDir));
    const made = await run(...args);
    expect(made.code, made.stderr).toBe(0);
    const added = runFolders(runsDir).filter((id) => !before.has(id));
    expect(added).toHaveLength(1);
    return added[0] as string;
  };
  // An iteration budget of 0: the baseline, its final check, and the stop.
  first = await newRun('run', 'cold-email', '--provider', 'sim', '--iterations', '0');
  second = await newRun('run', 'cold-email', '--provider', 'sim', '--iterations', '1');
}, 240_000);

afterAll(async () => {
  await repo?.cleanup();
});

describe('autoresearch compare', () => {
  it('shows both runs, every case under each best, the paired interval and the prompt diff', async () => {
    const result = await run('compare', first, second);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const out = result.stdout;
    expect(out).toContain(`run         ${first}`);
    expect(out).toContain(second);
    expect(out).toMatch(/status\s+finished \(iterations\)\s+finished \(iterations\)/);
    expect(out).toMatch(/iterations\s+0, 0 kept\s+1, 1 kept/);
    expect(out).toContain("Cases (each run's best: the final check in A, the final check in B)");
    expect(out).toMatch(
      /B − A [+-]\d\.\d{3} \[[+-]\d\.\d{3}, [+-]\d\.\d{3}\] over \d+ cases \(paired, 95%\)/,
    );
    expect(out).toContain('Best prompts, A → B');
    expect(out).toMatch(new RegExp(`^--- A ${first} best$`, 'm'));
  });

  it('gives the same comparison as JSON, case by case, the differences adding up', async () => {
    const result = await run('compare', first, second, '--json');
    expect(result.code).toBe(0);
    const json = JSON.parse(result.stdout);
    expect(json.format).toBe('autoresearch.compare/v1');
    expect(json.a.id).toBe(first);
    // A stopped after its baseline: its final check evaluated the baseline alone.
    expect(json.a.evaluation).toEqual({ source: 'final', iteration: 0 });
    expect(json.b.evaluation.source).toBe('final');
    const both = json.cases.filter((c: { d: number | null }) => c.d !== null);
    expect(both.length).toBe(json.paired.n);
    expect(json.paired.wins + json.paired.losses + json.paired.ties).toBe(json.paired.n);
    const mean = both.reduce((sum: number, c: { d: number }) => sum + c.d, 0) / both.length;
    expect(json.paired.mean).toBeCloseTo(mean, 12);
    for (const c of both) expect(c.d).toBeCloseTo(c.b - c.a, 12);
    // B kept its first proposal: its best differs from A's, which is the baseline.
    expect(json.b.kept).toBe(1);
    expect(json.prompts.identical).toBe(false);
    expect(json.prompts.hunks.length).toBeGreaterThan(0);
  });

  it('a run compared with itself has no difference and an identical prompt', async () => {
    const result = await run('compare', second, second, '--json');
    const json = JSON.parse(result.stdout);
    expect(json.paired.mean).toBe(0);
    expect(json.paired.ties).toBe(json.paired.n);
    expect(json.prompts).toMatchObject({ identical: true, hunks: [] });
    expect(json.caveats).toEqual([]);
  });

  it('an unknown run is exit 2 with the runs it could have meant', async () => {
    const result = await run('compare', second, 'nope');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('no run matches "nope"');
    expect(result.stdout).toBe('');
  });
});
