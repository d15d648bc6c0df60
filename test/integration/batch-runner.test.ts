/**
 * The batch engine (docs/design/cost-engine.md) against the fake server's batch APIs, through the
 * official SDK clients: calls split at the provider's limits with their cache keys as `custom_id`,
 * each batch journaled before the wait, answers into the pool's cache so the usual calls find them
 * (recorded once as batch calls at half price), errored / expired entries left to the usual
 * interactive call, every request shape of docs/design/prompt-shapes.md sent as the interactive
 * call would, a journaled batch polled (never resubmitted) by a later runner, a request two
 * concurrent runs share sent once, a wait cut short (`stop`, the
 * hours budget) leaving its batch journaled and uncancelled, and an OpenAI-compatible
 * server without `/batches` left to normal calls with one warning.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ModelEntry } from '../../src/experiment/schema.js';
import { buildAnthropicBody } from '../../src/providers/adapters/anthropic.js';
import { buildOpenAiBody } from '../../src/providers/adapters/openai.js';
import {
  type BatchCall,
  BatchWaitCutOff,
  createBatchRunner,
  type Finished,
  type Submitted,
} from '../../src/providers/batch/batch-runner.js';
import { BATCH_PRICE_FACTOR } from '../../src/providers/discounts.js';
import type { CallRecord } from '../../src/providers/ledger.js';
import { createModelPool, type ModelPool } from '../../src/providers/model-pool.js';
import { costOf, resolvePrice } from '../../src/providers/prices.js';
import type { CompletionRequest } from '../../src/providers/types.js';
import { type FakeLlmServer, startFakeLlmServer } from '../helpers/fake-llm-server.js';
import { useTempDir } from '../helpers/temp-dir.js';

let server: FakeLlmServer;
/** The batches of this test (the server keeps every test's). */
let seen = 0;
const batches = () => server.batches.slice(seen);
const tmp = useTempDir('batch-runner-');
const env = { ANTHROPIC_API_KEY: 'sk-ant-test', OPENAI_API_KEY: 'sk-test' };
const FAST = { initialMs: 5, maxMs: 20, factor: 2 };

beforeAll(async () => {
  server = await startFakeLlmServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.reset();
  seen = server.batches.length;
  server.configure({
    respond: (req) => `answer to ${String(req.messages.at(-1)?.content)}`,
    batch: {},
    faults: [],
  });
});

function entryFor(provider: 'anthropic' | 'openai'): ModelEntry {
  return provider === 'anthropic'
    ? { provider, model: 'claude-sonnet-4-5', base_url: server.anthropicBaseUrl, temperature: 0 }
    : { provider, model: 'gpt-4o', base_url: server.openaiBaseUrl, temperature: 0 };
}

function setUp(provider: 'anthropic' | 'openai', limits?: { requests: number }) {
  const generator = entryFor(provider);
  const models = { generator, mutator: generator };
  const pool = createModelPool({ models, concurrency: 4, cacheDir: tmp(), env });
  const journal: (['submitted', Submitted] | ['finished', Finished])[] = [];
  const warnings: string[] = [];
  const records: CallRecord[] = [];
  pool.ledger.onCall((record) => records.push(record));
  const runner = (pending: Submitted[] = [], cutoff?: () => BatchWaitCutOff | undefined) =>
    createBatchRunner({
      cache: pool.batchCache as NonNullable<ModelPool['batchCache']>,
      models,
      env,
      polling: FAST,
      pending,
      ...(cutoff === undefined ? {} : { cutoff }),
      ...(limits === undefined ? {} : { limits: { [provider]: { requests: limits.requests, bytes: 1e9 } } }),
      journal: {
        submitted: async (event) => void journal.push(['submitted', event]),
        finished: async (event) => void journal.push(['finished', event]),
        warn: (message) => void warnings.push(message),
      },
    });
  return { generator, pool, journal, warnings, records, runner };
}

const ask = (content: string, sampleIndex = 0): CompletionRequest => ({
  messages: [{ role: 'user', content }],
  temperature: 0,
  sampleIndex,
});
const calls = (requests: CompletionRequest[]): BatchCall[] =>
  requests.map((request) => ({ role: 'generator', request }));
const interactive = (api: string) => server.log.filter((entry) => entry.api === api).length;

describe.each(['anthropic', 'openai'] as const)('%s batches', (provider) => {
  it('split at the limit, journaled before the wait, answers in the cache at half price', async () => {
    const { generator, pool, journal, records, runner } = setUp(provider, { requests: 2 });
    server.configure({
      batch: {
        completeAfterMs: 30,
        limits: { [provider]: { requests: 2 } },
        fail: (req) => (JSON.stringify(req.body).includes('q3') ? 'overloaded' : undefined),
        expire: (req) => JSON.stringify(req.body).includes('q4'),
      },
    });
    const requests = ['q1', 'q2', 'q3', 'q4', 'q5'].map((q) => ask(q));
    // A repeated call is one request of the batch.
    await runner().run(
      calls([...requests, ask('q1')]),
      { iteration: 2, phase: 'generating' },
      new AbortController().signal,
    );

    const keys = requests.map((r) => pool.batchCache?.key('generator', r));
    expect(batches().map((b) => b.customIds)).toEqual([keys.slice(0, 2), keys.slice(2, 4), keys.slice(4)]);
    expect(journal.map(([kind]) => kind)).toEqual([
      'submitted',
      'submitted',
      'submitted',
      'finished',
      'finished',
      'finished',
    ]);
    expect(journal[0]?.[1]).toEqual({
      batchId: batches()[0]?.id,
      provider,
      model: generator.model,
      requests: 2,
      iteration: 2,
      phase: 'generating',
    });
    const finished = journal.filter(([kind]) => kind === 'finished').map(([, e]) => e as Finished);
    const total = (k: keyof Omit<Finished, 'batchId'>) => finished.reduce((sum, e) => sum + e[k], 0);
    expect([total('succeeded'), total('failed'), total('expired'), total('canceled')]).toEqual([3, 1, 1, 0]);

    // The usual path: answered from the batch, except the errored and expired ones.
    const before = interactive(provider);
    const client = pool.client('generator');
    const results = await Promise.all(requests.map((r) => client.complete(r)));
    expect(results.map((r) => r.text)).toEqual(['q1', 'q2', 'q3', 'q4', 'q5'].map((q) => `answer to ${q}`));
    expect(interactive(provider) - before).toBe(2);
    const batched = records.filter((r) => r.batch === true);
    expect(batched).toHaveLength(3);
    const price = resolvePrice(generator);
    for (const record of batched) {
      const full = costOf(price as NonNullable<typeof price>, {
        inputTokens: record.inputTokens,
        outputTokens: record.outputTokens,
      });
      expect(record.costUsd).toBeCloseTo(full * BATCH_PRICE_FACTOR, 12);
      expect(record.cached).toBe(false);
    }
    // Taken once: asked again, the batch's answer is a plain cache hit.
    const again = await client.complete(requests[0] as CompletionRequest);
    expect(again).toMatchObject({ cached: true, costUsd: 0 });
    expect(records.at(-1)?.batch).toBeUndefined();
  });

  it('sends every request shape as the interactive call would, and skips what is cached', async () => {
    const { generator, pool, runner } = setUp(provider);
    const shaped: CompletionRequest = {
      system: 'You extract invoice fields.',
      messages: [
        { role: 'user', content: 'Invoice INV-7' },
        {
          role: 'assistant',
          content: '',
          toolCalls: [{ id: 'call_1', name: 'lookup', arguments: { id: 7 } }],
        },
        { role: 'tool', toolCallId: 'call_1', content: '{"total": 120}' },
        { role: 'user', content: 'The total?' },
      ],
      tools: [
        {
          name: 'lookup',
          description: 'find an invoice',
          parameters: { type: 'object', properties: { id: { type: 'number' } } },
        },
      ],
      output: {
        name: 'invoice',
        schema: {
          type: 'object',
          properties: { total: { type: 'number' } },
          required: ['total'],
          additionalProperties: false,
        },
      },
      temperature: 0,
      sampleIndex: 3,
    };
    const plain = ask('cached already');
    await pool.client('generator').complete(plain);
    await runner().run(calls([shaped, plain]), {}, new AbortController().signal);
    expect(batches()).toHaveLength(1);
    expect(batches()[0]?.customIds).toEqual([pool.batchCache?.key('generator', shaped)]);
    const submitted = server.log.find(
      (e) => e.method === 'POST' && /\/(messages\/batches|files)$/.test(e.path),
    );
    const expected =
      provider === 'anthropic' ? buildAnthropicBody(generator, shaped) : buildOpenAiBody(generator, shaped);
    expect(submitted?.raw).toContain(JSON.stringify(expected));
  });

  it('a journaled batch is polled by the next runner, never submitted again', async () => {
    const first = setUp(provider);
    server.configure({ batch: { completeAfterMs: 60 } });
    const requests = [ask('a'), ask('b')];
    const aborted = new AbortController();
    const running = first.runner().run(calls(requests), { iteration: 1 }, aborted.signal);
    while (first.journal.length === 0) await new Promise((resolve) => setTimeout(resolve, 2));
    aborted.abort();
    await expect(running).rejects.toMatchObject({ kind: 'aborted' });
    expect(batches()).toHaveLength(1);
    expect(batches()[0]?.cancelled).toBe(false);

    const pending = first.journal.map(([, e]) => e as Submitted);
    const second = first.runner(pending);
    await second.run(calls(requests), { iteration: 1 }, new AbortController().signal);
    expect(batches()).toHaveLength(1);
    expect(first.journal.at(-1)).toEqual([
      'finished',
      { batchId: batches()[0]?.id, succeeded: 2, failed: 0, expired: 0, canceled: 0 },
    ]);
    const before = interactive(provider);
    await Promise.all(requests.map((r) => first.pool.client('generator').complete(r)));
    expect(interactive(provider)).toBe(before);
  });

  it('sends a request two concurrent runs share once: the second waits for the first batch', async () => {
    const { pool, runner } = setUp(provider);
    server.configure({ batch: { completeAfterMs: 40 } });
    const shared = ask('the parent again');
    const batchRunner = runner();
    const signal = new AbortController().signal;
    // Two candidates' evaluations retesting the same parent, side by side.
    await Promise.all([
      batchRunner.run(calls([ask('candidate one'), shared]), { iteration: 3 }, signal),
      batchRunner.run(calls([shared, ask('candidate two')]), { iteration: 3 }, signal),
    ]);
    const key = (r: CompletionRequest) => pool.batchCache?.key('generator', r);
    const sent = batches().flatMap((b) => b.customIds);
    expect(sent.filter((id) => id === key(shared))).toHaveLength(1);
    expect(sent.sort()).toEqual([key(ask('candidate one')), key(shared), key(ask('candidate two'))].sort());
    // Both runs returned with the shared answer in the cache: the usual call finds it.
    const before = interactive(provider);
    await pool.client('generator').complete(shared);
    expect(interactive(provider)).toBe(before);
  });
});

describe('a provider without a batch API', () => {
  it('is called one by one, with one warning', async () => {
    const generator = { provider: 'sim' as const, model: 'sim' };
    const models = { generator, mutator: generator };
    const pool = createModelPool({ models, concurrency: 2, cacheDir: tmp(), env });
    const warnings: string[] = [];
    const runner = createBatchRunner({
      cache: pool.batchCache as NonNullable<ModelPool['batchCache']>,
      models,
      env,
      polling: FAST,
      journal: {
        submitted: async () => undefined,
        finished: async () => undefined,
        warn: (message) => void warnings.push(message),
      },
    });
    await runner.run(calls([ask('x'), ask('y')]), {}, new AbortController().signal);
    expect(batches()).toEqual([]);
    expect(warnings).toEqual(['--batch: sim (sim) has no batch API; its calls are made one by one']);
  });
});

describe('an OpenAI-compatible server without batches', () => {
  it('gets normal calls and one warning', async () => {
    server.configure({ batch: { unsupported: true } });
    const { runner, warnings } = setUp('openai');
    const once = runner();
    await once.run(calls([ask('x')]), {}, new AbortController().signal);
    await once.run(calls([ask('y')]), {}, new AbortController().signal);
    expect(batches()).toHaveLength(0);
    expect(warnings).toEqual([expect.stringContaining('does not answer /batches')]);
  });
});

describe('a wait cut short (docs/design/cost-engine.md: `stop`, the hours budget)', () => {
  it('throws the cut at once: the batch stays journaled, unfinished and uncancelled, and nothing more is sent', async () => {
    const { journal, runner } = setUp('anthropic');
    server.configure({ batch: { completeAfterMs: 600_000 } });
    let cut: BatchWaitCutOff | undefined;
    const signal = new AbortController().signal;
    const where = { iteration: 1, phase: 'generating' } as const;
    const waiting = runner([], () => cut).run(calls([ask('q1')]), where, signal);
    waiting.catch(() => undefined);
    await vi.waitFor(() => expect(journal.map(([kind]) => kind)).toEqual(['submitted']), { timeout: 5_000 });
    cut = new BatchWaitCutOff('stop_requested', 'stopped while waiting');
    const asked = Date.now();
    await expect(waiting).rejects.toBe(cut);
    expect(Date.now() - asked).toBeLessThan(2_000);
    expect(journal.map(([kind]) => kind)).toEqual(['submitted']);
    expect(batches()).toMatchObject([{ ended: false, cancelled: false }]);
    // Once cut, a new wait is not started: nothing is submitted.
    await expect(runner([], () => cut).run(calls([ask('q2')]), where, signal)).rejects.toBe(cut);
    expect(batches()).toHaveLength(1);
  });
});
