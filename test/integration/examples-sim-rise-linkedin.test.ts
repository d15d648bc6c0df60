/**
 * `linkedin-post` rises offline: a whole `run --provider sim` through the built CLI, in a fresh
 * folder holding the shipped experiments and rubrics, for as many iterations as its
 * experiment.yaml header says it takes to reach what it states (test/helpers/example-rise.ts):
 * a word limit inside its 60–200 range is kept at iteration 3. Its own file, since a judge, a
 * grader and 16 cases make it the slowest of the prose examples (examples-sim-rise-prose.test.ts
 * runs the others beside it). Needs `npm run build` first.
 */
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, REPO_ROOT, requireBuiltCli, runBuiltCli, runFolders } from '../helpers/built-cli.js';
import { expectStatedRise, readResults, readStatedRise } from '../helpers/example-rise.js';

let work = '';
beforeAll(async () => {
  requireBuiltCli();
  work = await mkdtemp(join(tmpdir(), 'ar-examples-linkedin-'));
  await cp(join(REPO_ROOT, 'experiments/linkedin-post'), join(work, 'experiments/linkedin-post'), {
    recursive: true,
  });
  await cp(join(REPO_ROOT, 'rubrics/linkedin-post.md'), join(work, 'rubrics/linkedin-post.md'));
});
afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe('linkedin-post under --provider sim', () => {
  it('raises the best train score as its header states', async () => {
    const stated = await readStatedRise('linkedin-post');
    const result = await runBuiltCli(
      ['run', 'linkedin-post', '--provider', 'sim', '--iterations', String(stated.iterations)],
      { cwd: work, env: cleanEnv() },
    );
    expect(result.code, result.stderr).toBe(0);
    const [runId] = runFolders(join(work, 'runs'));
    const rows = readResults(await readFile(join(work, 'runs', String(runId), 'results.tsv'), 'utf8'));
    expectStatedRise(rows, stated, result.stdout);
  }, 240_000);
});
