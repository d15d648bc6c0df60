/**
 * Ctrl-C (docs/design/commands-and-exit-codes.md), through the built CLI: SIGINT to a running `run`
 * aborts the calls in flight, journals the open iteration as `interrupted` and exits 130 within 5
 * s; `resume` then redoes that iteration under the same number and the run ends whole.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../src/run/events.js';
import { type CliCopy, describeResult, runCli, spawnCli, snapshotCli } from '../kill/support/cli.js';
import { checkFinishedRun, readRunRecord, runsStatus } from '../kill/support/invariants.js';
import { createProject, FIXTURE, type Project } from '../kill/support/project.js';
import { journalEvents, waitForEvent, waitUntil } from '../kill/support/wait.js';

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

/** The iteration started last and not finished, as the journal stands. */
function openIteration(events: readonly RunEvent[]): number | undefined {
  let open: number | undefined;
  for (const event of events) {
    if (event.type === 'iteration_started') open = event.iteration;
    if (event.type === 'iteration_finished' && event.iteration === open) open = undefined;
  }
  return open;
}

describe('Ctrl-C', () => {
  it('exits 130 within 5 s with the open iteration journaled as interrupted; resume redoes it', async () => {
    const running = spawnCli(cli.main, ['run', FIXTURE, '--provider', 'sim', '--iterations', '6'], {
      cwd: project.dir,
      env: project.env,
    });
    const run = await waitUntil(() => project.onlyRun().catch(() => undefined), 'the run folder');
    // Interrupt while the judge subprocess runs: the longest, abortable stretch of an iteration.
    // (A signal that lands in a keep's git commit lets that iteration finish, leaving nothing open.)
    await waitForEvent(
      run.dir,
      (e) => e.type === 'phase' && e.phase === 'judging' && e.iteration >= 1,
      'iteration 1 judging',
    );
    const sent = Date.now();
    process.kill(running.pid, 'SIGINT');
    const result = await running.done;
    const elapsed = Date.now() - sent;
    expect(result.exitCode, describeResult(result)).toBe(130);
    expect(elapsed).toBeLessThan(5_000);

    const events = await journalEvents(run.dir);
    const stopped = events.findLast((e) => e.type === 'run_stopped');
    expect(stopped).toMatchObject({ reason: 'interrupted' });
    const interrupted = events.filter((e) => e.type === 'iteration_finished' && e.status === 'interrupted');
    expect(interrupted).toHaveLength(1);
    const number = (interrupted[0] as Extract<RunEvent, { type: 'iteration_finished' }>).iteration;
    expect(number).toBeGreaterThanOrEqual(1);
    // It was the iteration in progress: nothing was started after it.
    expect(openIteration(events.slice(0, events.indexOf(interrupted[0] as RunEvent)))).toBe(number);
    const { state } = await readRunRecord(run.dir);
    expect(state.open).toBeNull();
    expect(state.iterations.at(-1)).toMatchObject({ iteration: number, status: 'interrupted' });
    expect(await runsStatus(cli.main, project, run.id)).toBe('stopped');

    const resumed = await runCli(cli.main, ['resume', run.id, '--iterations', String(number)], {
      cwd: project.dir,
      env: project.env,
    });
    expect(resumed.exitCode, describeResult(resumed)).toBe(0);
    const after = (await readRunRecord(run.dir)).state;
    const redone = after.iterations.find((it) => it.iteration === number);
    expect(redone?.status).not.toBe('interrupted');
    expect(redone?.attempts).toBe(2);
    expect(after.iterations.map((it) => it.iteration)).toEqual(
      Array.from({ length: number + 1 }, (_, index) => index),
    );
    expect(await checkFinishedRun(cli.main, project, run.dir)).toEqual([]);
  });
});
