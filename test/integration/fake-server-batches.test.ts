/**
 * The shared fake server's batch APIs and prompt cache (docs/design/cost-engine.md), driven by the
 * official SDK clients the product uses: Anthropic Message Batches (create, retrieve, results,
 * cancel) and OpenAI Files + Batch (upload, create, retrieve, content, cancel), with a completion
 * delay, per-request failures and expiry, the providers' limits, and usage whose cache fields
 * follow each provider's rules. Later batch work in the product is tested against exactly this.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeLlmServer, startFakeLlmServer } from '../helpers/fake-llm-server.js';

let server: FakeLlmServer;
let clock = 0;
let anthropic: Anthropic;
let openai: OpenAI;

beforeAll(async () => {
  server = await startFakeLlmServer({ promptCache: { now: () => clock } });
  anthropic = new Anthropic({ apiKey: 'sk-test', baseURL: server.anthropicBaseUrl, maxRetries: 0 });
  openai = new OpenAI({ apiKey: 'sk-test', baseURL: server.openaiBaseUrl, maxRetries: 0 });
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.reset();
  server.configure({ respond: (req) => `answer to ${req.messages.at(-1)?.content}`, batch: {}, faults: [] });
});

const sha = (n: number) => n.toString(16).padStart(64, 'a');
const params = (content: string, model = 'claude-sonnet-4-5') => ({
  model,
  max_tokens: 100,
  messages: [{ role: 'user' as const, content }],
});

async function anthropicResults(id: string) {
  const lines: Anthropic.Messages.MessageBatchIndividualResponse[] = [];
  for await (const line of await anthropic.messages.batches.results(id)) lines.push(line);
  return lines;
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let i = 0; i < 400; i++) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('the batch never ended');
}

describe('Anthropic Message Batches on the fake server', () => {
  it('ends after its delay with every request answered, failed or expired as configured', async () => {
    server.configure({
      batch: {
        completeAfterMs: 150,
        fail: (req) => (req.customId === sha(2) ? 'overloaded' : undefined),
        expire: (req) => req.customId === sha(3),
      },
    });
    const created = await anthropic.messages.batches.create({
      requests: [1, 2, 3].map((n) => ({ custom_id: sha(n), params: params(`q${n}`) })),
    });
    expect(created).toMatchObject({
      type: 'message_batch',
      processing_status: 'in_progress',
      results_url: null,
    });
    expect(created.request_counts.processing).toBe(3);

    const ended = await until(
      () => anthropic.messages.batches.retrieve(created.id),
      (b) => b.processing_status === 'ended',
    );
    expect(ended.request_counts).toEqual({
      processing: 0,
      succeeded: 1,
      errored: 1,
      canceled: 0,
      expired: 1,
    });
    const byId = new Map((await anthropicResults(created.id)).map((line) => [line.custom_id, line.result]));
    expect(byId.get(sha(1))).toMatchObject({
      type: 'succeeded',
      message: { content: [{ type: 'text', text: 'answer to q1' }], usage: { cache_read_input_tokens: 0 } },
    });
    expect(byId.get(sha(2))).toMatchObject({
      type: 'errored',
      error: { type: 'error', error: { type: 'overloaded_error' } },
    });
    expect(byId.get(sha(3))).toEqual({ type: 'expired' });
    expect(server.batches).toEqual([
      expect.objectContaining({ id: created.id, api: 'anthropic', ended: true }),
    ]);
    expect(server.log.every((entry) => entry.api === 'anthropic-batch')).toBe(true);
  });

  it('refuses bad custom ids, duplicates and batches over the limit', async () => {
    const bad = (custom_id: string) => ({ custom_id, params: params('x') });
    const before = server.batches.length;
    await expect(anthropic.messages.batches.create({ requests: [bad('has space')] })).rejects.toMatchObject({
      status: 400,
    });
    await expect(anthropic.messages.batches.create({ requests: [bad(sha(1)), bad(sha(1))] })).rejects.toThrow(
      /duplicate custom_id/,
    );
    server.configure({ batch: { limits: { anthropic: { requests: 2 } } } });
    await expect(
      anthropic.messages.batches.create({ requests: [1, 2, 3].map((n) => bad(sha(n))) }),
    ).rejects.toThrow(/at most 2 requests/);
    expect(server.batches).toHaveLength(before);
  });

  it('cancels a batch that has not ended: every request canceled', async () => {
    server.configure({ batch: { completeAfterMs: 60_000 } });
    const created = await anthropic.messages.batches.create({
      requests: [{ custom_id: sha(7), params: params('q') }],
    });
    await expect(anthropic.messages.batches.results(created.id)).rejects.toThrow(/results_url/);
    const cancelling = await anthropic.messages.batches.cancel(created.id);
    expect(cancelling.processing_status).toBe('canceling');
    const ended = await anthropic.messages.batches.retrieve(created.id);
    expect(ended).toMatchObject({ processing_status: 'ended', request_counts: { canceled: 1 } });
    expect(await anthropicResults(created.id)).toEqual([{ custom_id: sha(7), result: { type: 'canceled' } }]);
    await expect(anthropic.messages.batches.retrieve('msgbatch_nope')).rejects.toMatchObject({ status: 404 });
  });
});

async function uploadBatch(lines: object[]) {
  const content = lines.map((line) => `${JSON.stringify(line)}\n`).join('');
  return openai.files.create({ file: await toFile(Buffer.from(content), 'batch.jsonl'), purpose: 'batch' });
}

const chatLine = (customId: string, content: string) => ({
  custom_id: customId,
  method: 'POST',
  url: '/v1/chat/completions',
  body: { model: 'gpt-4o', messages: [{ role: 'user', content }] },
});

async function fileLines(id: string | null | undefined): Promise<Record<string, unknown>[]> {
  if (id === null || id === undefined) return [];
  const text = await (await openai.files.content(id)).text();
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('OpenAI Files and Batch on the fake server', () => {
  it('runs an uploaded file: validating, in progress, then output and error files', async () => {
    server.configure({
      // Long enough that the retrieve right after the create still sees it in progress on a loaded
      // machine (100 ms was not, once: the gate ran beside other work).
      batch: { completeAfterMs: 1500, fail: (req) => (req.customId === 'b' ? 'rate_limit' : undefined) },
    });
    const file = await uploadBatch([chatLine('a', 'one'), chatLine('b', 'two')]);
    expect(file).toMatchObject({ object: 'file', purpose: 'batch', filename: 'batch.jsonl' });
    const created = await openai.batches.create({
      input_file_id: file.id,
      endpoint: '/v1/chat/completions',
      completion_window: '24h',
    });
    expect(created.status).toBe('validating');
    expect((await openai.batches.retrieve(created.id)).status).toBe('in_progress');
    const done = await until(
      () => openai.batches.retrieve(created.id),
      (b) => b.status === 'completed',
    );
    expect(done.request_counts).toEqual({ total: 2, completed: 1, failed: 1 });
    expect(await fileLines(done.output_file_id)).toEqual([
      expect.objectContaining({
        custom_id: 'a',
        error: null,
        response: expect.objectContaining({
          status_code: 200,
          body: expect.objectContaining({
            choices: [
              expect.objectContaining({ message: expect.objectContaining({ content: 'answer to one' }) }),
            ],
            usage: expect.objectContaining({ prompt_tokens_details: { cached_tokens: 0 } }),
          }),
        }),
      }),
    ]);
    expect(await fileLines(done.error_file_id)).toEqual([
      expect.objectContaining({ custom_id: 'b', response: expect.objectContaining({ status_code: 429 }) }),
    ]);
  });

  it('ends expired when a request expires, and fails a file with a bad line', async () => {
    server.configure({ batch: { expire: (req) => req.customId === 'late' } });
    const file = await uploadBatch([chatLine('on-time', 'x'), chatLine('late', 'y')]);
    const batch = await openai.batches.create({
      input_file_id: file.id,
      endpoint: '/v1/chat/completions',
      completion_window: '24h',
    });
    const ended = await openai.batches.retrieve(batch.id);
    expect(ended.status).toBe('expired');
    expect(await fileLines(ended.error_file_id)).toEqual([
      expect.objectContaining({
        custom_id: 'late',
        response: null,
        error: expect.objectContaining({ code: 'batch_expired' }),
      }),
    ]);

    const broken = await uploadBatch([chatLine('same', 'x'), chatLine('same', 'y')]);
    const refused = await openai.batches.create({
      input_file_id: broken.id,
      endpoint: '/v1/chat/completions',
      completion_window: '24h',
    });
    const failed = await openai.batches.retrieve(refused.id);
    expect(failed).toMatchObject({
      status: 'failed',
      errors: { data: [{ line: 2, message: 'duplicate custom_id same' }] },
    });
  });

  it('cancels a batch before it is due', async () => {
    server.configure({ batch: { completeAfterMs: 60_000 } });
    const file = await uploadBatch([chatLine('c', 'x')]);
    const batch = await openai.batches.create({
      input_file_id: file.id,
      endpoint: '/v1/chat/completions',
      completion_window: '24h',
    });
    expect((await openai.batches.cancel(batch.id)).status).toBe('cancelling');
    expect(await openai.batches.retrieve(batch.id)).toMatchObject({
      status: 'cancelled',
      output_file_id: null,
    });
  });
});

describe('prompt caching in usage', () => {
  const long = 'Judge the reply against the rubric with care. '.repeat(120); // ~5,500 characters ≈ 1,380 tokens

  it('Anthropic: a marked prefix above the minimum is written once, then read until its TTL', async () => {
    clock = 1_000_000;
    const ask = (text: string, model = 'claude-sonnet-4-5') =>
      anthropic.messages.create({
        model,
        max_tokens: 50,
        system: [{ type: 'text', text, cache_control: { type: 'ephemeral' } }],
        messages: [{ role: 'user', content: 'output one' }],
      });
    const first = await ask(long);
    const tokens = Math.ceil(long.length / 4);
    expect(first.usage).toMatchObject({ cache_creation_input_tokens: tokens, cache_read_input_tokens: 0 });
    const second = await ask(long);
    expect(second.usage).toMatchObject({ cache_creation_input_tokens: 0, cache_read_input_tokens: tokens });
    expect(second.usage.input_tokens).toBeGreaterThan(0);
    expect(second.usage.input_tokens).toBeLessThan(20);
    // Haiku 4.5 caches only from 4,096 tokens: the same prefix is not cached there.
    expect((await ask(long, 'claude-haiku-4-5')).usage).toMatchObject({
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
    });
    // Unmarked, nothing is cached; past five minutes the entry is gone and written again.
    const plain = await anthropic.messages.create({ ...params(long), system: long });
    expect(plain.usage).toMatchObject({ cache_creation_input_tokens: 0, cache_read_input_tokens: 0 });
    clock += 5 * 60 * 1000 + 1;
    expect((await ask(long)).usage).toMatchObject({
      cache_creation_input_tokens: tokens,
      cache_read_input_tokens: 0,
    });
  });

  it('OpenAI: a repeated prompt of 1,024 tokens or more reports its shared prefix in steps of 128', async () => {
    clock = 2_000_000;
    const ask = (tail: string) =>
      openai.chat.completions.create({
        model: 'gpt-4o',
        messages: [
          { role: 'system', content: long },
          { role: 'user', content: tail },
        ],
      });
    expect((await ask('first output')).usage?.prompt_tokens_details?.cached_tokens).toBe(0);
    const again = (await ask('second output')).usage;
    const cached = again?.prompt_tokens_details?.cached_tokens ?? 0;
    expect(cached).toBeGreaterThanOrEqual(1024);
    expect(cached % 128).toBe(0);
    expect(cached).toBeLessThanOrEqual(again?.prompt_tokens ?? 0);
    const short = await openai.chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(short.usage?.prompt_tokens_details?.cached_tokens).toBe(0);
  });
});
