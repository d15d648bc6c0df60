/**
 * `autoresearch stop` (docs/design/commands-and-exit-codes.md), through the built CLI: a run in the
 * background finishes the iteration it is in, stops with reason stop_requested and exits 0; the
 * request does not outlive that session, so a later `resume` runs instead of stopping at once. Also
 * through `run --detach`, which returns at once with the run id and its log.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestStop, STOP_FILE } from '../../src/cli/stop-request.js';
import { runPaths } from '../../src/run/paths.js';
import { type CliCopy, describeResult, runCli, spawnCli, snapshotCli } from '../kill/support/cli.js';
import { checkFinishedRun, readRunRecord, runsStatus } from '../kill/support/invariants.js';
import { createProject, FIXTURE, type Project } from '../kill/support/project.js';
import { waitForEvent, waitUntil } from '../kill/support/wait.js';

let cli: CliCopy;
let project: Project;

beforeAll(async () => {
  cli = await snapshotCli();
  project = await createProject();
});

afterAll(async () => {
  await project?.cleanup();
  await cli?.cleanup();
});

const firstIteration = (event: { type: string; iteration?: number }) =>
  event.type === 'iteration_started' && event.iteration === 1;

describe('autoresearch stop', () => {
  it('lets the current iteration finish, stops with stop_requested, exits 0 — and the run resumes', async () => {
    const running = spawnCli(cli.main, ['run', FIXTURE, '--provider', 'sim', '--iterations', '6'], {
      cwd: project.dir,
      env: project.env,
    });
    const run = await waitUntil(() => project.onlyRun().catch(() => undefined), 'the run folder');
    await waitForEvent(run.dir, firstIteration, 'iteration 1');
    const stop = await runCli(cli.main, ['stop', run.id], { cwd: project.dir, env: project.env });
    expect(stop.exitCode, describeResult(stop)).toBe(0);
    expect(stop.stdout).toContain(`asked run ${run.id} (pid ${running.pid}) to stop`);

    const result = await running.done;
    expect(result.exitCode, describeResult(result)).toBe(0);
    const { state } = await readRunRecord(run.dir);
    expect(state.stop?.reason).toBe('stop_requested');
    expect(state.open).toBeNull();
    // The iteration running when stop was asked finished normally; the budget was not used up.
    const statuses = state.iterations.map((it) => it.status);
    expect(statuses).not.toContain('interrupted');
    expect(state.completedIterations).toBeGreaterThanOrEqual(1);
    expect(state.completedIterations).toBeLessThan(6);
    expect(state.finalEvaluation).toBeNull();
    expect(existsSync(join(run.dir, STOP_FILE))).toBe(false);
    expect(existsSync(runPaths(run.dir).lock)).toBe(false);
    expect(await runsStatus(cli.main, project, run.id)).toBe('stopped');

    const total = state.completedIterations + 1;
    const resumed = await runCli(cli.main, ['resume', run.id, '--iterations', String(total)], {
      cwd: project.dir,
      env: project.env,
    });
    expect(resumed.exitCode, describeResult(resumed)).toBe(0);
    const after = (await readRunRecord(run.dir)).state;
    expect(after.completedIterations).toBe(total);
    expect(after.stop?.reason).toBe('iterations');
    expect(await checkFinishedRun(cli.main, project, run.dir)).toEqual([]);
  });

  it('a stale request left by a crashed session does not stop the next one', async () => {
    const other = await createProject();
    try {
      const killed = await runCli(cli.main, ['run', FIXTURE, '--provider', 'sim', '--iterations', '1'], {
        cwd: other.dir,
        env: other.env,
        killAt: 'iteration_started:1',
      });
      expect(killed.signal, describeResult(killed)).toBe('SIGKILL');
      const run = await other.onlyRun();
      // What `stop` wrote for the session that then crashed.
      const { token } = JSON.parse(await readFile(runPaths(run.dir).lock, 'utf8')) as { token: string };
      await requestStop(run.dir, token);
      const resumed = await runCli(cli.main, ['resume', run.id], { cwd: other.dir, env: other.env });
      expect(resumed.exitCode, describeResult(resumed)).toBe(0);
      const { state } = await readRunRecord(run.dir);
      expect(state.stop?.reason).toBe('iterations');
      expect(state.completedIterations).toBe(1);
    } finally {
      await other.cleanup();
    }
  });

  it('stops a run started with --detach', async () => {
    const other = await createProject();
    try {
      const started = await runCli(
        cli.main,
        ['run', FIXTURE, '--provider', 'sim', '--iterations', '6', '--detach'],
        { cwd: other.dir, env: other.env },
      );
      expect(started.exitCode, describeResult(started)).toBe(0);
      const runId = started.stdout.trim();
      const run = await other.onlyRun();
      expect(run.id).toBe(runId);
      expect(started.stderr).toContain(`log: ${join(run.dir, 'run.log')}`);
      await waitForEvent(run.dir, firstIteration, 'iteration 1 of the detached run');
      const stop = await runCli(cli.main, ['stop', runId], { cwd: other.dir, env: other.env });
      expect(stop.exitCode, describeResult(stop)).toBe(0);
      await waitForEvent(run.dir, (e) => e.type === 'run_stopped', 'the detached run to stop', 120_000);
      await waitUntil(
        async () => (existsSync(runPaths(run.dir).lock) ? undefined : true),
        'the lock release',
      );
      const { state } = await readRunRecord(run.dir);
      expect(state.stop?.reason).toBe('stop_requested');
      expect(state.iterations.map((it) => it.status)).not.toContain('interrupted');
      expect(await readFile(join(run.dir, 'run.log'), 'utf8')).toContain(`Run ${runId} stopped`);
    } finally {
      await other.cleanup();
    }
  });
});
