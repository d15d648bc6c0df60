/**
 * `inbox-replies` and `support-bot` rise offline: a whole `run --provider sim` through the built
 * CLI, in a fresh repository holding the shipped experiments and rubrics, for as many iterations
 * as the example's experiment.yaml header says it takes to reach what it states
 * (test/helpers/example-rise.ts). Both rise by their second iteration: a kept fix for the most
 * common failing check (jargon, then a length scoped to one kind of reply; the greeting, then the
 * word limit). linkedin-post, slower, has a file of its own so the two run side by side. Needs
 * `npm run build` first.
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
  work = await mkdtemp(join(tmpdir(), 'ar-examples-prose-'));
  await cp(join(REPO_ROOT, 'experiments'), join(work, 'experiments'), { recursive: true });
  await cp(join(REPO_ROOT, 'rubrics'), join(work, 'rubrics'), { recursive: true });
});
afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe.each(['inbox-replies', 'support-bot'])('%s under --provider sim', (name) => {
  it('raises the best train score as its header states', async () => {
    const stated = await readStatedRise(name);
    const runsDir = join(work, 'runs');
    const before = new Set(runFolders(runsDir));
    const result = await runBuiltCli(
      ['run', name, '--provider', 'sim', '--iterations', String(stated.iterations)],
      {
        cwd: work,
        env: cleanEnv(),
      },
    );
    expect(result.code, result.stderr).toBe(0);
    const runId = runFolders(runsDir).find((id) => !before.has(id));
    const rows = readResults(await readFile(join(runsDir, String(runId), 'results.tsv'), 'utf8'));
    expectStatedRise(rows, stated, result.stdout);
  }, 240_000);
});
