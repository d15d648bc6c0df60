/**
 * The bias probes (docs/design/judge-reliability.md) through the real sandboxed judge, under
 * `process` isolation: program judges with a bias planted on purpose are flagged by the probe for
 * that bias and passed by the others, a fair one passes all three; the built-in judge (needs the
 * build) gets "not applicable" for order, and its repeats reach the model every time despite the
 * cache.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ProbeResult } from '../../src/calibrate/probe-result.js';
import { runBiasProbes } from '../../src/calibrate/probes.js';
import type { JudgeEntry, ModelEntry } from '../../src/experiment/schema.js';
import { parseRubric } from '../../src/experiment/rubric.js';
import type { Rubric } from '../../src/experiment/types.js';
import type { JudgeOutput } from '../../src/judge/judge.js';
import { createSandboxedJudge } from '../../src/judge/sandboxed-judge.js';
import { parseJudgeUserMessage } from '../../src/protocol/judge-call.js';
import { createModelPool, type ModelPool } from '../../src/providers/model-pool.js';
import { type FakeLlmServer, type FakeRequest, startFakeLlmServer } from '../helpers/fake-llm-server.js';

const BIAS_JUDGE = resolve('test/fixtures/judges/bias-judge.mjs');
const FAULT_JUDGE = resolve('test/fixtures/judges/fault-judge.mjs');
const USER_KEY = 'sk-ant-api03-USER-KEY-for-bias-probes';
const rubric = parseRubric(
  'rubric.md',
  '# Rubric\n\n## Criteria\n\n### Clarity\nweight: 2\n\n### Relevance\n',
).rubric as Rubric;

/** Twelve outputs of 40 to 183 characters whose true quality (the marker) is 1 to 3. */
const outputs: JudgeOutput[] = Array.from({ length: 12 }, (_, i) => {
  const marker = ` score:${1 + (i % 3)}`;
  const words = `Reply ${i} about the parcel, its route and the date it arrives at the door. `.repeat(4);
  return { caseId: `case-${i}`, sample: 0, text: words.slice(0, 40 + 13 * i - marker.length) + marker };
});

function programJudge(command: string[]) {
  const entry: JudgeEntry = { command: [process.execPath, ...command], timeout_s: 60 };
  return createSandboxedJudge({ entry, commandCwd: process.cwd(), isolation: 'process' });
}

function probe(results: ProbeResult[], name: ProbeResult['probe']): ProbeResult {
  return results.find((r) => r.probe === name) as ProbeResult;
}

const signal = new AbortController().signal;

describe('bias probes on program judges', () => {
  it('pass a fair judge on all three probes', async () => {
    const results = await runBiasProbes({
      judge: programJudge([BIAS_JUDGE, 'fair']),
      judgeSeesAllOutputs: true,
      outputs,
      rubric,
      repeats: 3,
      seed: 5,
      signal,
    });
    expect(ProbeResult.array().parse(results)).toEqual(results);
    expect(results.map((r) => [r.probe, r.applicable, r.biased, r.calls])).toEqual([
      ['order', true, false, 2],
      ['length', true, false, 2],
      ['repeat', true, false, 3],
    ]);
    expect(probe(results, 'order')).toMatchObject({ estimate: 0, interval: [0, 0] });
    expect(probe(results, 'order').verdict).toMatch(/^no position bias detected: /);
    expect(probe(results, 'length')).toMatchObject({ estimate: 0, interval: [0, 0] });
    expect(probe(results, 'length').verdict).toMatch(/^no length bias detected: /);
    expect(probe(results, 'repeat').estimate).toBe(1);
    expect(probe(results, 'repeat').verdict).toMatch(/^consistent: 12 of 12 outputs \(100% \[76%, 100%\]\)/);
  });

  it('flag a judge that adds points to the first output file it reads with the order probe only', async () => {
    const results = await runBiasProbes({
      judge: programJudge([BIAS_JUDGE, 'first']),
      judgeSeesAllOutputs: true,
      outputs,
      rubric,
      repeats: 2,
      seed: 9,
      signal,
    });
    const order = probe(results, 'order');
    expect(order.biased).toBe(true);
    // +2 on every criterion for one output per judging, seen first once and last once.
    expect(order.estimate).toBeGreaterThan(0.5);
    expect(order.interval?.[0]).toBeGreaterThan(0);
    expect(order.verdict).toMatch(/^position bias: the judge favours earlier outputs/);
    expect(probe(results, 'length').biased).toBe(false);
    expect(probe(results, 'repeat')).toMatchObject({ biased: false, estimate: 1, calls: 2 });
  });

  it('flag a judge that rewards length with the length probe only', async () => {
    const results = await runBiasProbes({
      judge: programJudge([BIAS_JUDGE, 'length']),
      judgeSeesAllOutputs: true,
      outputs,
      rubric,
      repeats: 3,
      seed: 1,
      signal,
    });
    const length = probe(results, 'length');
    expect(length.biased).toBe(true);
    expect(length.estimate).toBeGreaterThan(0.5);
    expect(length.interval?.[0]).toBeGreaterThan(0.25);
    expect(length.verdict).toMatch(/^length bias: the judge rewards length/);
    expect(probe(results, 'order')).toMatchObject({ biased: false, estimate: 0 });
    expect(probe(results, 'repeat').biased).toBe(false);
  });

  it('report a judge that fails as undecided, after one judge run each', async () => {
    const results = await runBiasProbes({
      judge: programJudge([FAULT_JUDGE, 'garbage']),
      judgeSeesAllOutputs: true,
      outputs: outputs.slice(0, 3),
      rubric,
      repeats: 3,
      seed: 1,
      signal,
    });
    for (const result of results) {
      expect(result).toMatchObject({
        applicable: true,
        estimate: null,
        interval: null,
        biased: null,
        calls: 1,
      });
      expect(result.verdict).toMatch(
        /^could not tell: the judge failed \(judge-scores.json is not valid JSON/,
      );
    }
  });
});

describe('bias probes on the built-in judge', () => {
  let server: FakeLlmServer;
  let cacheDir: string;
  let pool: ModelPool | undefined;
  /** Replies the "score:N" of the output, or with `wobble` one lower on every second call of an output. */
  let wobble = false;
  const seen = new Map<string, number>();

  function reply(req: FakeRequest): string {
    const parsed = parseJudgeUserMessage(req.messages.at(-1)?.content ?? '');
    if (parsed === undefined) return 'not a judge request';
    const base = Number(/score:(\d)/.exec(parsed.output)?.[1] ?? 3);
    const calls = (seen.get(parsed.output) ?? 0) + 1;
    seen.set(parsed.output, calls);
    const score = wobble && calls % 2 === 0 ? base + 1 : base;
    return JSON.stringify({
      criteria_scores: Object.fromEntries(parsed.criteria.map((k) => [k, score])),
      reasoning: `Scored ${score}.`,
    });
  }

  beforeAll(async () => {
    server = await startFakeLlmServer({ requireKey: USER_KEY, respond: reply });
    cacheDir = await mkdtemp(join(tmpdir(), 'bias-probes-cache-'));
  });
  afterAll(async () => {
    await server.close();
    await rm(cacheDir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    server.reset();
    seen.clear();
    await rm(cacheDir, { recursive: true, force: true });
  });
  afterEach(async () => {
    await pool?.close();
    pool = undefined;
  });

  function builtinJudge() {
    const entry: ModelEntry = {
      provider: 'anthropic',
      model: 'claude-judge',
      temperature: 0,
      base_url: server.anthropicBaseUrl,
    };
    pool = createModelPool({
      models: { judge: entry },
      concurrency: 4,
      env: { ANTHROPIC_API_KEY: USER_KEY },
      retry: { baseDelayMs: 1, maxDelayMs: 2 },
      cacheDir,
    });
    return createSandboxedJudge({
      entry,
      client: pool.client('judge'),
      commandCwd: process.cwd(),
      isolation: 'process',
      env: { ...process.env, ANTHROPIC_API_KEY: USER_KEY },
    });
  }

  const few = outputs.slice(0, 6);

  it('reports order as not applicable, and every repeat reaches the model despite the cache', async () => {
    const results = await runBiasProbes({
      judge: builtinJudge(),
      judgeSeesAllOutputs: false,
      outputs: few,
      rubric,
      repeats: 3,
      seed: 2,
      signal,
    });
    expect(probe(results, 'order')).toEqual({
      probe: 'order',
      applicable: false,
      estimate: null,
      interval: null,
      biased: null,
      verdict: expect.stringMatching(/^not applicable: this judge scores one output per call/),
      calls: 0,
    });
    expect(probe(results, 'length')).toMatchObject({ biased: false, estimate: 0, calls: 2 });
    expect(probe(results, 'repeat')).toMatchObject({ biased: false, estimate: 1, calls: 3 });
    // Length: 6 plain + 6 padded; repeat: 3 × 6 identical requests, none served from the cache.
    expect(server.log.filter((e) => e.status === 200)).toHaveLength(30);
  });

  it('flags a judge whose scores change from one sample to the next as inconsistent', async () => {
    wobble = true;
    try {
      const results = await runBiasProbes({
        judge: builtinJudge(),
        judgeSeesAllOutputs: false,
        outputs: few,
        rubric,
        repeats: 2,
        seed: 2,
        signal,
      });
      const repeat = probe(results, 'repeat');
      expect(repeat).toMatchObject({ biased: true, estimate: 0, calls: 2 });
      expect(repeat.verdict).toMatch(/^inconsistent: only 0 of 6 outputs \(0% \[0%, 39%\]\)/);
    } finally {
      wobble = false;
    }
  });
});
