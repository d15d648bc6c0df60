/**
 * One process per run (docs/design/run-records.md), through the built CLI: while one `resume` holds
 * the run's lock, a second `resume` is refused with exit 2 naming the holder's pid and changes
 * nothing; a lock left behind by a SIGKILLed process is taken over with a warning.
 *
 * The holder is paused with SIGSTOP once its lock is on disk, so the second resume meets it
 * for certain (a stopped process is still alive), then continued to its end.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LockRecord, parseLockRecord } from '../../src/run/lock.js';
import { runPaths } from '../../src/run/paths.js';
import { type CliCopy, describeResult, runCli, spawnCli, snapshotCli } from '../kill/support/cli.js';
import { checkFinishedRun, readRunRecord } from '../kill/support/invariants.js';
import { createProject, FIXTURE, type Project, snapshotProject } from '../kill/support/project.js';
import { waitUntil } from '../kill/support/wait.js';

let cli: CliCopy;
let project: Project;
let run: { id: string; dir: string };

beforeAll(async () => {
  cli = await snapshotCli();
  project = await createProject();
  const result = await runCli(cli.main, ['run', FIXTURE, '--provider', 'sim', '--iterations', '1'], {
    cwd: project.dir,
    env: project.env,
  });
  expect(result.exitCode, describeResult(result)).toBe(0);
  run = await project.onlyRun();
}, 180_000);

afterAll(async () => {
  await project?.cleanup();
  await cli?.cleanup();
});

async function lockHolder(runDir: string): Promise<LockRecord | undefined> {
  try {
    return parseLockRecord(JSON.parse(await readFile(runPaths(runDir).lock, 'utf8')));
  } catch {
    return undefined;
  }
}

describe('the run lock', () => {
  it('refuses a second resume while the first runs, naming its pid', async () => {
    const resumesBefore = (await readRunRecord(run.dir)).state.resumes;
    const first = spawnCli(cli.main, ['resume', run.id, '--iterations', '+1'], {
      cwd: project.dir,
      env: project.env,
    });
    let paused = false;
    try {
      await waitUntil(
        async () => ((await lockHolder(run.dir))?.pid === first.pid ? true : undefined),
        'the lock',
      );
      process.kill(first.pid, 'SIGSTOP');
      paused = true;
      const before = await snapshotProject(project);
      const second = await runCli(cli.main, ['resume', run.id, '--iterations', '+1'], {
        cwd: project.dir,
        env: project.env,
      });
      expect(second.exitCode, describeResult(second)).toBe(2);
      expect(second.stderr).toContain(`is in use: process ${first.pid}`);
      expect(second.stderr).toContain(`autoresearch stop ${run.id}`);
      expect(await snapshotProject(project)).toEqual(before);
    } finally {
      if (paused) process.kill(first.pid, 'SIGCONT');
    }
    const result = await first.done;
    expect(result.exitCode, describeResult(result)).toBe(0);
    const { state } = await readRunRecord(run.dir);
    expect(state.resumes).toBe(resumesBefore + 1);
    expect(await lockHolder(run.dir)).toBeUndefined();
    expect(await checkFinishedRun(cli.main, project, run.dir)).toEqual([]);
  });

  it('takes over the lock of a SIGKILLed run with a warning', async () => {
    const killed = await runCli(cli.main, ['resume', run.id, '--iterations', '+1'], {
      cwd: project.dir,
      env: project.env,
      killAt: 'generating:1',
    });
    expect(killed.signal, describeResult(killed)).toBe('SIGKILL');
    const stale = await lockHolder(run.dir);
    expect(stale).toBeDefined();

    const result = await runCli(cli.main, ['resume', run.id], { cwd: project.dir, env: project.env });
    expect(result.exitCode, describeResult(result)).toBe(0);
    expect(result.stderr).toContain(`warning: took over a stale lock (process ${stale?.pid}`);
    expect(result.stderr).toContain(`process ${stale?.pid} is gone`);
    expect(await lockHolder(run.dir)).toBeUndefined();
    expect(await checkFinishedRun(cli.main, project, run.dir)).toEqual([]);
  });
});
