/**
 * Regression: retrying an invalid judge reply replayed the CACHED invalid reply (9 server calls
 * where 18 were expected). Through the real path — runJudge starts `autoresearch judge`, which
 * calls the runner's loopback proxy, which calls the fake server with the run's cache — every
 * retry reaches the server, and the usable reply replaces the invalid one in the cache.
 * Needs `npm run build` first.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseRubric } from '../../src/experiment/rubric.js';
import type { ModelEntry } from '../../src/experiment/schema.js';
import type { Rubric } from '../../src/experiment/types.js';
import { runJudge } from '../../src/judge/run-judge.js';
import { parseJudgeUserMessage } from '../../src/protocol/judge-call.js';
import { createModelPool, type ModelPool } from '../../src/providers/model-pool.js';
import { type FakeLlmServer, type FakeRequest, startFakeLlmServer } from '../helpers/fake-llm-server.js';

const KEY = 'sk-ant-api03-USER-KEY-for-retry-cache';
const rubric = parseRubric('rubric.md', '## Criteria\n\n### Clarity\n').rubric as Rubric;
const outputs = [
  { caseId: 'a', sample: 0, text: 'first output' },
  { caseId: 'b', sample: 0, text: 'second output' },
  { caseId: 'c', sample: 0, text: 'third output' },
];
const runnerEnv = { ...process.env, ANTHROPIC_API_KEY: KEY };

let server: FakeLlmServer;
let cacheDir: string;
let pool: ModelPool | undefined;
/** How many times each output was asked about: the reply can depend on it. */
const asked = new Map<string, number>();
let usableFrom = Number.POSITIVE_INFINITY;

function reply(req: FakeRequest): string {
  const parsed = parseJudgeUserMessage(req.messages.at(-1)?.content ?? '');
  if (parsed === undefined) return 'not a judge request';
  const calls = (asked.get(parsed.output) ?? 0) + 1;
  asked.set(parsed.output, calls);
  if (calls < usableFrom) return 'I would rather not say.';
  return JSON.stringify({ criteria_scores: { clarity: 4 }, reasoning: 'Clear.' });
}

beforeAll(async () => {
  server = await startFakeLlmServer({ requireKey: KEY, respond: reply });
});
afterAll(async () => {
  await server.close();
});
beforeEach(async () => {
  server.reset();
  asked.clear();
  cacheDir = await mkdtemp(join(tmpdir(), 'judge-retry-cache-'));
});
afterEach(async () => {
  await pool?.close();
  pool = undefined;
  await rm(cacheDir, { recursive: true, force: true });
});

function judge(entry: ModelEntry) {
  pool ??= createModelPool({
    models: { judge: entry },
    concurrency: 4,
    env: { ANTHROPIC_API_KEY: KEY },
    retry: { baseDelayMs: 1, maxDelayMs: 2 },
    cacheDir,
  });
  return runJudge({ outputs, rubric, judge: entry, client: pool.client('judge'), seed: 4, env: runnerEnv });
}

describe('retrying an invalid judge reply', () => {
  const entry = (samples?: number): ModelEntry => ({
    provider: 'anthropic',
    model: 'claude-judge',
    base_url: server.anthropicBaseUrl,
    ...(samples === undefined ? {} : { samples }),
  });

  it('asks the server on every retry: 3 outputs × 3 replies × 2 attempts = 18 calls', async () => {
    usableFrom = Number.POSITIVE_INFINITY;
    const result = await judge(entry());
    expect(result).toMatchObject({ ok: false, kind: 'judge_error', attempts: 2 });
    expect(server.log).toHaveLength(18);
  });

  it('replaces the invalid reply in the cache, so the next evaluation pays nothing', async () => {
    usableFrom = 2;
    const first = await judge(entry(2));
    expect(first.ok).toBe(true);
    // Each output: the first of its two samples is invalid and retried once.
    expect(server.log).toHaveLength(9);
    const second = await judge(entry(2));
    expect(second.ok).toBe(true);
    expect(server.log).toHaveLength(9);
  });
});
