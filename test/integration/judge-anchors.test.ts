/**
 * Drift anchors end to end (docs/design/judge-reliability.md): the built CLI runs the release-note
 * experiment against the fake LLM server with `judging: { anchors: 2, anchor_every: 2 }` under
 * process isolation.
 *
 * - With the built-in judge, every anchor reading reaches the server — the baseline's re-read
 *   and the checks at iterations 2 and 4 — although the baseline's judging of the same output
 *   is in the run's cache: a reading is a fresh sample, never a cache hit.
 * - With a judge program that keeps a count of its runs in a file the test controls and scores
 *   higher from its third run on, the checks flag drift, warn, and `show` and the report say
 *   so; the same program held steady is never flagged.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { parseJudgeUserMessage } from '../../src/protocol/judge-call.js';
import { createSimProvider } from '../../src/providers/sim/sim-provider.js';
import type { RunEvent } from '../../src/run/events.js';
import { readJournal } from '../../src/run/journal.js';
import { cleanEnv, REPO_ROOT, requireBuiltCli, runBuiltCli, runFolders } from '../helpers/built-cli.js';
import { type FakeLlmServer, respondWith, startFakeLlmServer } from '../helpers/fake-llm-server.js';
import { createTempRepo, readTreeBytes, type TempRepo } from '../helpers/temp-repo.js';

const FIXTURE = path.join(REPO_ROOT, 'test', 'fixtures', 'kill', 'release-note');
const DRIFTING_JUDGE = path.join(REPO_ROOT, 'test', 'fixtures', 'judges', 'drifting-judge.mjs');
const KEY = 'sk-ant-anchor-test-0123456789';

let server: FakeLlmServer;
const repos: TempRepo[] = [];

beforeAll(async () => {
  requireBuiltCli();
  server = await startFakeLlmServer({
    respond: respondWith(createSimProvider({ provider: 'sim' })),
    requireKey: KEY,
  });
});

afterAll(async () => {
  await server?.close();
  await Promise.all(repos.map((repo) => repo.cleanup()));
});

/**
 * A project holding the release-note experiment with anchors every 2 iterations, and its run —
 * finished, or SIGKILLed at `killAt` (src/loop/kill-point.ts) and then resumed to its end.
 */
async function runProject(judge?: readonly string[], killAt?: string) {
  const files: Record<string, string> = {};
  for (const [file, bytes] of await readTreeBytes(FIXTURE))
    files[`experiments/release-note/${file}`] = bytes.toString('utf8');
  const config = parse(files['experiments/release-note/experiment.yaml'] as string);
  config.judging = { isolation: 'process', anchors: 2, anchor_every: 2 };
  if (judge) config.models.judge = { command: [...judge] };
  files['experiments/release-note/experiment.yaml'] = stringify(config);
  const repo = await createTempRepo({ files });
  repos.push(repo);
  const env = cleanEnv({ ...repo.env, ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.anthropicBaseUrl });
  const from = server.log.length;
  const args = ['run', 'release-note', '--iterations', '4'];
  const runs = path.join(repo.dir, 'runs');
  if (killAt !== undefined) {
    const killed = await runBuiltCli(args, {
      cwd: repo.dir,
      env: { ...env, AUTORESEARCH_TEST_KILL_AT: killAt },
    });
    expect(killed.code, killed.stderr).toBeUndefined();
  }
  const resume = killAt === undefined ? args : ['resume', runFolders(runs)[0] as string];
  const result = await runBuiltCli(resume, { cwd: repo.dir, env });
  expect(result.code, result.stderr).toBe(0);
  const [id] = runFolders(runs);
  const runDir = path.join(runs, id as string);
  const { events } = await readJournal(runDir);
  return { repo, env, id: id as string, runDir, events, requests: server.log.slice(from) };
}

const ofType = <T extends RunEvent['type']>(events: readonly RunEvent[], type: T) =>
  events.filter((e): e is Extract<RunEvent, { type: T }> => e.type === type);

/** The output a built-in judge request scores, or undefined for any other request. */
function judgedOutput(body: Record<string, unknown> | undefined): string | undefined {
  const messages = (body?.['messages'] ?? []) as { role: string; content: unknown }[];
  const last = messages.filter((m) => m.role === 'user').at(-1);
  const content = last?.content;
  const text =
    typeof content === 'string'
      ? content
      : Array.isArray(content)
        ? content.map((part: { text?: string }) => part.text ?? '').join('')
        : '';
  return parseJudgeUserMessage(text)?.output;
}

describe('drift anchors, built-in judge, fake LLM server', () => {
  it('sends every anchor reading to the model: the baseline re-read and the checks at 2 and 4', async () => {
    const run = await runProject();
    const [noise] = ofType(run.events, 'judge_noise');
    expect(noise?.iteration).toBe(0);
    expect(noise?.anchors).toHaveLength(2);
    expect(ofType(run.events, 'judge_drift').map((e) => e.iteration)).toEqual([2, 4]);

    const baseline = JSON.parse(
      await readFile(
        path.join(run.runDir, 'iterations', '0000', 'candidates', '0', 'evaluation.json'),
        'utf8',
      ),
    ) as { evaluation: { outputs: { caseId: string; sample: number; text: string }[] } };
    for (const anchor of noise?.anchors ?? []) {
      const text = baseline.evaluation.outputs.find(
        (o) => o.caseId === anchor.caseId && o.sample === anchor.sample,
      )?.text;
      expect(text).toBeTruthy();
      const asked = run.requests.filter((entry) => judgedOutput(entry.body) === text);
      // The baseline's judging, then its re-read and the checks at 2 and 4: the same request,
      // asked again each time although its reply was in the run's cache.
      expect(asked.length, `judge calls on anchor ${anchor.caseId}`).toBe(4);
      expect(new Set(asked.map((entry) => entry.digest)).size).toBe(1);
    }
  }, 180_000);
});

describe('drift anchors, a judge program under process isolation', () => {
  it('flags a judge that scores higher from its third run on, and show and the report say so', async () => {
    const scratch = await createTempRepo({ init: false });
    repos.push(scratch);
    const runs = path.join(scratch.dir, 'judge-runs.txt');
    const run = await runProject(['node', DRIFTING_JUDGE, runs, '2']);

    const [noise] = ofType(run.events, 'judge_noise');
    expect(noise).toMatchObject({ iteration: 0, noise: 0 });
    const drift = ofType(run.events, 'judge_drift');
    expect(drift.map((e) => [e.iteration, e.beyondNoise])).toEqual([
      [2, true],
      [4, true],
    ]);
    // Every criterion 3 → 5: the judge signal goes from 0.5 to 1 on both anchors.
    expect(drift[0]?.mean).toBeCloseTo(0.5);
    const warnings = ofType(run.events, 'warning').filter((w) => w.message.startsWith('judge drift'));
    expect(warnings.map((w) => w.iteration)).toEqual([2, 4]);

    const show = await runBuiltCli(['show', run.id], { cwd: run.repo.dir, env: run.env });
    expect(show.code, show.stderr).toBe(0);
    // A long field wraps under its column: read it unwrapped.
    const header = show.stdout.replace(/\n {12}/g, ' ');
    expect(header).toMatch(/^Judge +noise ±0\.000 per output.*2 drift checks.*BEYOND the judge noise/m);
    expect(header).toMatch(/^Warning +iteration 2: judge drift: /m);
    const report = await readFile(path.join(run.runDir, 'report.html'), 'utf8');
    expect(report).toContain('"beyondNoise":true');
    expect(report).toContain('judge drift: re-judged with the cache bypassed');
  }, 180_000);

  it('never flags the same program held steady; a resume never reads a journaled check again', async () => {
    const scratch = await createTempRepo({ init: false });
    repos.push(scratch);
    const steadyRuns = path.join(scratch.dir, 'judge-runs.txt');
    const run = await runProject(['node', DRIFTING_JUDGE, steadyRuns, '1000']);
    const drift = ofType(run.events, 'judge_drift');
    expect(drift.map((e) => [e.iteration, e.mean, e.beyondNoise])).toEqual([
      [2, 0, false],
      [4, 0, false],
    ]);
    expect(ofType(run.events, 'warning').filter((w) => w.message.includes('judge'))).toEqual([]);

    // Killed right after iteration 2's end (and its drift check) was journaled — the 3rd
    // `finished`, after the baseline's and iteration 1's — then resumed: the check is not read
    // again, so the program runs exactly as often as in the uninterrupted run.
    const resumedRuns = path.join(scratch.dir, 'judge-runs-resumed.txt');
    const resumed = await runProject(['node', DRIFTING_JUDGE, resumedRuns, '1000'], 'finished:3');
    expect(resumed.events.some((e) => e.type === 'run_resumed')).toBe(true);
    expect(ofType(resumed.events, 'judge_drift').map((e) => e.iteration)).toEqual([2, 4]);
    expect(ofType(resumed.events, 'judge_noise')).toHaveLength(1);
    expect(await readFile(resumedRuns, 'utf8')).toBe(await readFile(steadyRuns, 'utf8'));
  }, 300_000);
});
