/**
 * `run --batch` (docs/design/cost-engine.md) as a user runs it, against the fake server's Anthropic
 * Message Batches: the generator's, the built-in judge's and the grader's calls of every evaluation
 * go out as batches journaled before the wait and come back at half price (the sandboxed judge
 * and grader then run on cache hits; the mutator stays interactive). Under paired acceptance
 * (screen, rest, final evaluation) with drift anchors on, the only interactive calls are the
 * mutator's and the anchors' re-judgings; every other one is a batch call or a response-cache
 * hit. A run SIGKILLed while a batch is pending, or ended then by `autoresearch stop` or the
 * hours budget (at once, not when the batch ends), leaves it journaled and uncancelled, and
 * `resume` polls that very batch — zero new creations for its requests — and finishes the run.
 * A run resumed once with `--batch` stays batched on the resumes after it.
 */
import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventOf, RunEvent } from '../../src/run/events.js';
import { createSimProvider } from '../../src/providers/sim/sim-provider.js';
import { type FakeLlmServer, respondWith, startFakeLlmServer } from '../helpers/fake-llm-server.js';
import { pendingBatches } from '../../src/providers/batch/batch-runner.js';
import { type CliCopy, describeResult, runCli, snapshotCli, spawnCli } from './support/cli.js';
import { checkFinishedRun, readRunRecord } from './support/invariants.js';
import { createProject, FIXTURE, type Project } from './support/project.js';
import { waitForEvent, waitUntil } from './support/wait.js';

const KEY = 'sk-ant-batch-test-0123456789';
const ARGS = ['run', FIXTURE, '--iterations', '1'];
const PAIRED = 'release-note-paired';
/** A batch due long after any test has ended: only a cut-off wait ends before it. */
const BATCH_NEVER_DUE_MS = 600_000;

let cli: CliCopy;
let server: FakeLlmServer;

beforeAll(async () => {
  cli = await snapshotCli();
  server = await startFakeLlmServer({
    respond: respondWith(createSimProvider({ provider: 'sim' })),
    requireKey: KEY,
  });
});
afterAll(async () => {
  await server?.close();
  await cli?.cleanup();
});

function env(): NodeJS.ProcessEnv {
  return {
    ANTHROPIC_API_KEY: KEY,
    ANTHROPIC_BASE_URL: server.anthropicBaseUrl,
    AUTORESEARCH_BATCH_POLL_MS: '20',
  };
}

const ofType = <T extends RunEvent['type']>(events: readonly RunEvent[], type: T) =>
  events.filter((e): e is EventOf<T> => e.type === type);

/** One run to the end: its spend and journal. Drift anchors off: their re-judgings are fresh calls. */
async function wholeRun(args: readonly string[]) {
  const project = await createProject({ env: env() });
  try {
    await appendFile(
      join(project.dir, 'experiments', FIXTURE, 'experiment.yaml'),
      'judging:\n  anchors: 0\n',
    );
    const result = await runCli(cli.main, args, { cwd: project.dir, env: project.env });
    expect(result.exitCode, describeResult(result)).toBe(0);
    const run = await project.onlyRun();
    expect(await checkFinishedRun(cli.main, project, run.dir)).toEqual([]);
    const { state, events } = await readRunRecord(run.dir);
    return { usd: state.spend.byRole, events, state };
  } finally {
    await project.cleanup();
  }
}

describe('run --batch against the fake server', () => {
  it('batches every generator, judge and grader call at half the interactive price, with the same decisions', async () => {
    const interactive = await wholeRun(ARGS);
    const before = server.batches.length;
    const batched = await wholeRun([...ARGS, '--batch']);
    const submitted = ofType(batched.events, 'batch_submitted');
    const finished = ofType(batched.events, 'batch_finished');
    expect(submitted.length).toBeGreaterThan(0);
    expect(server.batches.length - before).toBe(submitted.length);
    expect(finished.map((e) => e.batchId).sort()).toEqual(submitted.map((e) => e.batchId).sort());
    expect(finished.every((e) => e.failed + e.expired + e.canceled === 0)).toBe(true);
    // Each batch is journaled before its answers are read.
    for (const batch of submitted) {
      const at = batched.events.indexOf(batch);
      expect(
        batched.events.findIndex((e) => e.type === 'batch_finished' && e.batchId === batch.batchId),
      ).toBeGreaterThan(at);
    }
    // Generator, built-in judge and grader at half price; the mutator is interactive.
    for (const role of ['generator', 'judge', 'grader'] as const) {
      expect(interactive.usd[role].usd).toBeGreaterThan(0);
      expect(batched.usd[role].usd, role).toBeCloseTo(interactive.usd[role].usd / 2, 10);
    }
    expect(new Set(submitted.map((e) => e.phase))).toEqual(new Set(['generating', 'judging', 'grading']));
    expect(batched.usd.mutator.usd).toBeCloseTo(interactive.usd.mutator.usd, 10);
    const statuses = (s: typeof batched.state) => s.iterations.map((it) => it.status);
    expect(statuses(batched.state)).toEqual(statuses(interactive.state));
  }, 240_000);

  it("leaves interactive only the mutator and the drift anchors' re-judgings: every other call is a batch call or a response-cache hit", async () => {
    // Paired acceptance: every proposal screened on a minibatch, the rest, retests of both sides.
    const project = await createProject({ fixture: PAIRED, env: env() });
    try {
      // Anchors on (their default count), checked every iteration: a noise reading at the
      // baseline and a drift check in each of the three iterations.
      await appendFile(
        join(project.dir, 'experiments', PAIRED, 'experiment.yaml'),
        'judging:\n  anchor_every: 1\n',
      );
      const logFrom = server.log.length;
      const result = await runCli(cli.main, ['run', PAIRED, '--iterations', '3', '--batch'], {
        cwd: project.dir,
        env: project.env,
      });
      expect(result.exitCode, describeResult(result)).toBe(0);
      const run = await project.onlyRun();
      const { state, events } = await readRunRecord(run.dir);
      const rejudged = [...ofType(events, 'judge_noise'), ...ofType(events, 'judge_drift')].reduce(
        (n, e) => n + e.anchors.length,
        0,
      );
      expect(ofType(events, 'judge_drift').length).toBeGreaterThan(0);
      const interactive = (role: 'generator' | 'judge' | 'grader' | 'mutator') => {
        const s = state.spend.byRole[role];
        return s.calls - s.batchCalls - s.cachedCalls;
      };
      expect(state.spend.byRole.generator.batchCalls).toBeGreaterThan(0);
      expect(interactive('generator')).toBe(0);
      expect(interactive('grader')).toBe(0);
      // The anchors bypass the cache by design (docs/design/judge-reliability.md), so a batch
      // cannot answer them.
      expect(interactive('judge')).toBe(rejudged);
      expect(interactive('mutator')).toBe(state.spend.byRole.mutator.calls);
      // The ledger's interactive calls are exactly the completions the server was asked for one by one.
      const oneByOne = server.log.slice(logFrom).filter((e) => e.api === 'anthropic').length;
      expect(oneByOne).toBe(rejudged + interactive('mutator'));
    } finally {
      await project.cleanup();
    }
  }, 240_000);

  it('a kill while a batch is pending: resume polls it and creates none of its requests again', async () => {
    server.configure({ batch: { completeAfterMs: 500 } });
    const project = await createProject({ env: env() });
    try {
      const killed = await runCli(cli.main, [...ARGS, '--batch'], {
        cwd: project.dir,
        env: project.env,
        killAt: 'batch_submitted:1',
      });
      expect(killed.signal, describeResult(killed)).toBe('SIGKILL');
      const run = await project.onlyRun();
      const pending = await leftPending(run.dir);
      await resumePolls(project, run, pending, []);
    } finally {
      server.configure({ batch: {} });
      await project.cleanup();
    }
  }, 240_000);

  it('a night resumed once with --batch stays batched on later resumes', async () => {
    const project = await createProject({ env: env() });
    try {
      // Started interactively, killed after the baseline.
      const first = await runCli(cli.main, ARGS, {
        cwd: project.dir,
        env: project.env,
        killAt: 'recorded:1',
      });
      expect(first.signal, describeResult(first)).toBe('SIGKILL');
      const run = await project.onlyRun();
      // Resumed with --batch, killed at its first batch.
      const second = await runCli(cli.main, ['resume', run.id, '--batch'], {
        cwd: project.dir,
        env: project.env,
        killAt: 'batch_submitted:1',
      });
      expect(second.signal, describeResult(second)).toBe('SIGKILL');
      // Resumed without the flag: still batched.
      const third = await runCli(cli.main, ['resume', run.id], { cwd: project.dir, env: project.env });
      expect(third.exitCode, describeResult(third)).toBe(0);
      const { events } = await readRunRecord(run.dir);
      const resumes = events.flatMap((e, i) => (e.type === 'run_resumed' ? [i] : []));
      expect(resumes).toHaveLength(2);
      const submittedIn = (from: number, to?: number) =>
        ofType(events.slice(from, to), 'batch_submitted').length;
      expect(submittedIn(0, resumes[0])).toBe(0);
      expect(submittedIn(resumes[0] as number, resumes[1])).toBe(1);
      expect(submittedIn(resumes[1] as number)).toBeGreaterThan(0);
      expect(await checkFinishedRun(cli.main, project, run.dir)).toEqual([]);
    } finally {
      await project.cleanup();
    }
  }, 240_000);

  it('`autoresearch stop` while a batch is pending ends the run at once, the batch left for resume to poll', async () => {
    server.configure({ batch: { completeAfterMs: BATCH_NEVER_DUE_MS } });
    const project = await createProject({ env: env() });
    try {
      const running = spawnCli(cli.main, [...ARGS, '--batch'], { cwd: project.dir, env: project.env });
      const run = await waitUntil(() => project.onlyRun().catch(() => undefined), 'the run folder');
      await waitForEvent(run.dir, (e) => e.type === 'batch_submitted', 'a batch journaled');
      const asked = Date.now();
      const stop = await runCli(cli.main, ['stop', run.id], { cwd: project.dir, env: project.env });
      expect(stop.exitCode, describeResult(stop)).toBe(0);
      const result = await running.done;
      expect(result.exitCode, describeResult(result)).toBe(0);
      // Not after the batch (due in 10 minutes): within the second the wait checks, plus shutdown.
      expect(Date.now() - asked).toBeLessThan(30_000);
      const { state } = await readRunRecord(run.dir);
      expect(state.stop?.reason).toBe('stop_requested');
      const pending = await leftPending(run.dir);
      server.configure({ batch: {} });
      await resumePolls(project, run, pending, []);
    } finally {
      server.configure({ batch: {} });
      await project.cleanup();
    }
  }, 240_000);

  it('the hours budget running out while a batch is pending ends the run with reason hours, the batch left for resume', async () => {
    server.configure({ batch: { completeAfterMs: BATCH_NEVER_DUE_MS } });
    const project = await createProject({ env: env() });
    try {
      // 0.002 h = 7.2 s of active time, spent waiting on the baseline's first batch.
      const result = await runCli(cli.main, [...ARGS, '--batch', '--hours', '0.002'], {
        cwd: project.dir,
        env: project.env,
      });
      expect(result.exitCode, describeResult(result)).toBe(0);
      const run = await project.onlyRun();
      const { state } = await readRunRecord(run.dir);
      expect(state.stop?.reason).toBe('hours');
      expect(state.stop?.message).toContain('while waiting on a batch');
      expect(state.finalEvaluation).toBeNull();
      const pending = await leftPending(run.dir);
      server.configure({ batch: {} });
      await resumePolls(project, run, pending, ['--hours', '1']);
    } finally {
      server.configure({ batch: {} });
      await project.cleanup();
    }
  }, 240_000);
});

/** The run's journaled batches never finished: at least one, none cancelled on the server. */
async function leftPending(runDir: string) {
  const pending = pendingBatches((await readRunRecord(runDir)).events);
  expect(pending.length).toBeGreaterThan(0);
  return pending.map((batch) => {
    const created = server.batches.find((b) => b.id === batch.batchId);
    expect(created).toMatchObject({ cancelled: false });
    return { id: batch.batchId, keys: new Set(created?.customIds) };
  });
}

/** `resume` polls each pending batch to its end, creates none of their requests again, and finishes the run. */
async function resumePolls(
  project: Project,
  run: { id: string; dir: string },
  pending: readonly { id: string; keys: ReadonlySet<string> }[],
  args: readonly string[],
) {
  const from = server.batches.length;
  const logFrom = server.log.length;
  const resumed = await runCli(cli.main, ['resume', run.id, ...args], { cwd: project.dir, env: project.env });
  expect(resumed.exitCode, describeResult(resumed)).toBe(0);
  const { events } = await readRunRecord(run.dir);
  for (const { id, keys } of pending) {
    const again = server.batches.slice(from).filter((b) => b.customIds.some((k) => keys.has(k)));
    expect(again).toEqual([]);
    expect(
      server.log.slice(logFrom).some((e) => e.method === 'GET' && e.path === `/v1/messages/batches/${id}`),
    ).toBe(true);
    expect(ofType(events, 'batch_finished').find((e) => e.batchId === id)).toMatchObject({
      succeeded: keys.size,
      failed: 0,
    });
  }
  expect(await checkFinishedRun(cli.main, project, run.dir)).toEqual([]);
}
