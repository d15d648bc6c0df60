/**
 * The kill test against the fake LLM server: the same experiment with Anthropic
 * models whose endpoint is a local fake server answering with the sim, so every model call —
 * generator, mutator, and the judge and grader subprocesses through the runner's loopback
 * proxy — is a real HTTP request in the server's log. Runs are SIGKILLed at seeded points and
 * resumed; no process may ask again for a call whose response was already in the run's cache
 * when it started, and the finished run must make the decisions of an uninterrupted one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSimProvider } from '../../src/providers/sim/sim-provider.js';
import type { RunState } from '../../src/run/run-state.js';
import { type FakeLlmServer, respondWith, startFakeLlmServer } from '../helpers/fake-llm-server.js';
import {
  repeatedCalls,
  recordingAnswers,
  settleServer,
  type Tally,
  tallyCache,
  tallyRequests,
} from './support/call-ledger.js';
import { type CliCopy, describeResult, runCli, snapshotCli } from './support/cli.js';
import { checkFinishedRun, checkKilledRun, decisionsOf, readRunRecord } from './support/invariants.js';
import {
  countPoints,
  formatKillPoint,
  type KillPoint,
  pickKillPoint,
  POINTS,
  type ReferenceShape,
} from './support/kill-plan.js';
import { createSeededRandom } from '../../src/judge/seeded-shuffle.js';
import { createProject, FIXTURE, type Project } from './support/project.js';

const SEED = 6_0001;
const RUN_ARGS = ['run', FIXTURE, '--iterations', '3'];
const KEY = 'sk-ant-kill-test-0123456789';
/** Each chain kills one run at these points in turn (occurrences seeded), then resumes it to the end. */
const CHAINS: readonly (readonly string[])[] = [
  ['committed', 'generated', 'grading', 'proposed'],
  ['scoring', 'judging', 'finished', 'final_done'],
];

let cli: CliCopy;
let server: FakeLlmServer;
let answers: Map<number, string>;
let reference: { decisions: ReturnType<typeof decisionsOf>; shape: ReferenceShape; calls: Tally };

function projectEnv(): NodeJS.ProcessEnv {
  return { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.anthropicBaseUrl };
}

beforeAll(async () => {
  cli = await snapshotCli();
  const recording = recordingAnswers(respondWith(createSimProvider({ provider: 'sim' })));
  answers = recording.answers;
  server = await startFakeLlmServer({ respond: recording.respond, requireKey: KEY });
  const project = await createProject({ env: projectEnv() });
  try {
    const from = server.log.length;
    const result = await runCli(cli.main, RUN_ARGS, { cwd: project.dir, env: project.env });
    expect(result.exitCode, describeResult(result)).toBe(0);
    await settleServer(server);
    const run = await project.onlyRun();
    expect(await checkFinishedRun(cli.main, project, run.dir)).toEqual([]);
    const { state, manifest } = await readRunRecord(run.dir);
    const statuses = state.iterations.filter((it) => it.iteration > 0).map((it) => it.status);
    // The chains cut a commit: the reference run must keep something.
    expect(statuses).toContain('keep');
    reference = {
      decisions: decisionsOf(state),
      shape: { statuses, cases: Object.keys(manifest.caseHashes).length },
      calls: tallyRequests(server, answers, from),
    };
    // Every model call was answered (the settle probes go to an unknown route).
    const calls = server.log.slice(from).filter((entry) => entry.api !== 'unknown');
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.filter((entry) => entry.status !== 200)).toEqual([]);
  } finally {
    await project.cleanup();
  }
}, 180_000);

afterAll(async () => {
  await server?.close();
  await cli?.cleanup();
});

/** One process of the chain; returns the calls it asked for again, if any. */
async function runProcess(
  project: Project,
  args: readonly string[],
  killAt: KillPoint | undefined,
): Promise<{ killed: boolean; repeats: string[]; failure?: string }> {
  const runDir = await project.onlyRun().then(
    (run) => run.dir,
    () => null,
  );
  const cachedBefore = runDir ? await tallyCache(runDir) : new Map<string, number>();
  const from = server.log.length;
  const result = await runCli(cli.main, args, {
    cwd: project.dir,
    env: project.env,
    ...(killAt ? { killAt: formatKillPoint(killAt) } : {}),
  });
  await settleServer(server);
  const repeats = repeatedCalls(reference.calls, cachedBefore, tallyRequests(server, answers, from));
  if (result.signal === 'SIGKILL') return { killed: true, repeats };
  if (result.exitCode === 0) return { killed: false, repeats };
  return { killed: false, repeats, failure: describeResult(result) };
}

describe('SIGKILL against the fake LLM server, then resume', () => {
  it.each(CHAINS.map((points, chain) => [chain, points] as const))(
    'chain %i: no completed call is requested again',
    async (chain, points) => {
      const random = createSeededRandom(SEED + chain);
      const project = await createProject({ env: projectEnv() });
      const problems: string[] = [];
      try {
        let state: RunState | null = null;
        let args: readonly string[] = RUN_ARGS;
        const fired: KillPoint[] = [];
        for (const [k, point] of points.entries()) {
          const counts = countPoints(reference.shape, state, fired.at(-1));
          const preferred = POINTS.findIndex((p) => p.point === point);
          const kill = pickKillPoint(random, counts, preferred, points.length - 1 - k);
          const ahead = `${point} is still ahead of chain ${chain} (reference: ${reference.shape.statuses.join(' ')})`;
          expect(kill?.point, ahead).toBe(point);
          const outcome = await runProcess(project, args, kill);
          const where = `${args[0]} killed at ${kill ? formatKillPoint(kill) : '-'}`;
          for (const repeat of outcome.repeats) problems.push(`${where}: repeated ${repeat}`);
          expect(outcome.failure, where).toBeUndefined();
          expect(outcome.killed, `${where}: the point was reached`).toBe(true);
          fired.push(kill as KillPoint);
          const run = await project.onlyRun();
          for (const problem of await checkKilledRun(run.dir)) problems.push(`${where}: ${problem}`);
          state = (await readRunRecord(run.dir)).state;
          args = ['resume', run.id];
        }
        const last = await runProcess(project, args, undefined);
        for (const repeat of last.repeats) problems.push(`final resume: repeated ${repeat}`);
        expect(last.failure).toBeUndefined();
        const run = await project.onlyRun();
        problems.push(...(await checkFinishedRun(cli.main, project, run.dir)));
        expect(problems).toEqual([]);
        expect(decisionsOf((await readRunRecord(run.dir)).state)).toEqual(reference.decisions);
      } finally {
        await project.cleanup();
      }
    },
  );
});
