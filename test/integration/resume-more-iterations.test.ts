/**
 * `resume --iterations +N` allows N more iterations from where the run stopped
 * (docs/experiment.md, budget): a run of 4 killed after its first iteration and resumed with `+1`
 * ends after 2 iterations, not 5. `resume` without an id continues the newest stopped or crashed
 * run and says which.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type CliCopy, describeResult, runCli, snapshotCli } from '../kill/support/cli.js';
import { readRunRecord } from '../kill/support/invariants.js';
import { createProject, FIXTURE, type Project } from '../kill/support/project.js';

let cli: CliCopy;
let project: Project;

beforeAll(async () => {
  cli = await snapshotCli();
  project = await createProject();
}, 120_000);

afterAll(async () => {
  await project?.cleanup();
  await cli?.cleanup();
});

it('+1 on a run interrupted at 1 of 4 runs one more iteration; without an id, resume picks that run', async () => {
  // The second `recorded` moment is the first iteration's derived files: the run dies right after it.
  const killed = await runCli(cli.main, ['run', FIXTURE, '--provider', 'sim', '--iterations', '4'], {
    cwd: project.dir,
    env: project.env,
    killAt: 'recorded:2',
  });
  expect(killed.signal, describeResult(killed)).toBe('SIGKILL');
  const run = await project.onlyRun();
  expect((await readRunRecord(run.dir)).state.completedIterations).toBe(1);

  const resumed = await runCli(cli.main, ['resume', '--iterations', '+1'], {
    cwd: project.dir,
    env: project.env,
  });
  expect(resumed.exitCode, describeResult(resumed)).toBe(0);
  expect(resumed.stderr).toContain(`resuming the newest stopped or crashed run: ${run.id}`);
  const { state } = await readRunRecord(run.dir);
  expect(state.completedIterations).toBe(2);
  expect(resumed.stdout + resumed.stderr).toMatch(/2 of 2 iterations done/);
}, 180_000);
