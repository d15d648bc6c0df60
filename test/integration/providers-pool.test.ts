import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ModelEntry } from '../../src/experiment/schema.js';
import { createModelPool, type ModelPool } from '../../src/providers/model-pool.js';
import { type CompletionResult, ProviderError } from '../../src/providers/types.js';
import { type FakeLlmServer, type LogEntry, startFakeLlmServer } from '../helpers/fake-llm-server.js';

const KEY = 'sk-ant-api03-SECRET-do-not-leak-7f3a9c';
const env = { ANTHROPIC_API_KEY: KEY, OPENAI_API_KEY: KEY };
let server: FakeLlmServer;
let dir: string;
let pool: ModelPool | undefined;

beforeAll(async () => {
  server = await startFakeLlmServer();
  dir = await mkdtemp(join(tmpdir(), 'providers-pool-'));
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});
beforeEach(() => {
  server.reset();
  server.configure({
    faults: [],
    faultRate: { rate: 0, seed: 1, kinds: [] },
    latencyMs: 0,
    respond: (req) => ({
      text: `re: ${req.messages.at(-1)?.content}`,
      usage: { input_tokens: 100, output_tokens: 10 },
    }),
  });
});
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

const anthropic = (over: Partial<ModelEntry> = {}): ModelEntry => ({
  provider: 'anthropic',
  model: 'claude-haiku-4-5',
  base_url: server.anthropicBaseUrl,
  ...over,
});
const fastRetry = { baseDelayMs: 2, maxDelayMs: 20 };
const ask = (content: string, extra = {}) => ({ messages: [{ role: 'user' as const, content }], ...extra });

async function filesUnder(root: string): Promise<string[]> {
  const entries = await readdir(root, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

describe('model pool under faults', () => {
  it('completes 200 calls at concurrency 8 through 30% injected 5xx/429 faults', async () => {
    server.configure({
      latencyMs: 3,
      faultRate: {
        rate: 0.3,
        seed: 7,
        kinds: ['server_error', 'unavailable', 'overloaded', { kind: 'rate_limit', retryAfterMs: 40 }],
      },
    });
    const retries: number[] = [];
    pool = createModelPool({
      models: { generator: anthropic({ max_retries: 10 }) },
      concurrency: 8,
      env,
      retry: fastRetry,
      onRetry: (_role, event) => retries.push(event.delayMs),
    });
    const client = pool.client('generator');
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) => client.complete(ask(`call ${i}`))),
    );

    expect(results.map((r) => r.text)).toEqual(Array.from({ length: 200 }, (_, i) => `re: call ${i}`));
    const faulted = server.log.filter((e) => e.fault !== undefined);
    expect(faulted.length).toBeGreaterThan(30);
    expect(server.log).toHaveLength(200 + faulted.length);
    expect(retries).toHaveLength(faulted.length);
    expect(results.reduce((sum, r) => sum + (r.attempts ?? 0), 0)).toBe(server.log.length);
    expect(server.maxInFlight).toBeLessThanOrEqual(8);
    expect(server.maxInFlight).toBeGreaterThanOrEqual(4);

    // Every retry of a rate-limited attempt waited at least the server's retry-after-ms.
    const byCall = new Map<string, LogEntry[]>();
    for (const e of server.log) {
      const key = JSON.stringify(e.body?.['messages']);
      byCall.set(key, [...(byCall.get(key) ?? []), e]);
    }
    let checked = 0;
    for (const attempts of byCall.values()) {
      attempts.forEach((attempt, i) => {
        const next = attempts[i + 1];
        if (attempt.fault === 'rate_limit' && next !== undefined) {
          expect(next.receivedAt - attempt.finishedAt).toBeGreaterThanOrEqual(38);
          checked++;
        }
      });
      expect(attempts.at(-1)?.status).toBe(200);
    }
    expect(checked).toBeGreaterThan(0);

    const totals = pool.ledger.snapshot();
    expect(totals.byRole.generator).toMatchObject({ calls: 200, failedCalls: 0, inputTokens: 20_000 });
    expect(totals.total.usd).toBeCloseTo(200 * ((100 * 1 + 10 * 5) / 1e6), 10);
  });

  it('waits a whole Retry-After of seconds', async () => {
    server.queueFaults({ kind: 'rate_limit', retryAfterS: 1 });
    pool = createModelPool({ models: { generator: anthropic() }, concurrency: 2, env, retry: fastRetry });
    const result = await pool.client('generator').complete(ask('patience'));
    expect(result.attempts).toBe(2);
    const [first, second] = server.log;
    expect((second?.receivedAt ?? 0) - (first?.finishedAt ?? 0)).toBeGreaterThanOrEqual(990);
  });

  it('shares one limit per endpoint between roles', async () => {
    server.configure({ latencyMs: 10 });
    pool = createModelPool({
      models: { generator: anthropic({ concurrency: 3 }), judge: anthropic({ model: 'claude-sonnet-4-5' }) },
      concurrency: 8,
      env,
    });
    const calls = Array.from({ length: 24 }, (_, i) =>
      pool?.client(i % 2 ? 'judge' : 'generator').complete(ask(`shared ${i}`)),
    );
    await Promise.all(calls);
    expect(server.maxInFlight).toBe(3);
    // Each client reports the limit it shares (the built-in judge is told about it).
    expect(pool.client('judge').concurrency).toBe(3);
    expect(pool.client('generator').concurrency).toBe(3);
  });
});

describe('model pool secrets', () => {
  it('fails a 401 in one attempt naming the variable, and the key appears nowhere', async () => {
    const writes: string[] = [];
    const spyOut = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      writes.push(String(chunk));
      return true;
    });
    const spyErr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      writes.push(String(chunk));
      return true;
    });
    const cacheDir = join(dir, 'secret-cache');
    try {
      pool = createModelPool({
        models: { generator: anthropic() },
        concurrency: 4,
        env,
        cacheDir,
        retry: fastRetry,
      });
      server.queueFaults('unauthorized');
      const error = await pool
        .client('generator')
        .complete(ask('who am i'))
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProviderError);
      expect((error as ProviderError).kind).toBe('auth');
      expect((error as ProviderError).message).toContain('ANTHROPIC_API_KEY was rejected (401)');
      expect(server.log).toHaveLength(1);
      await pool.client('generator').complete(ask('now it works'));

      const files = await filesUnder(cacheDir);
      expect(files).toHaveLength(1);
      for (const file of files) expect(await readFile(file, 'utf8')).not.toContain(KEY);
      const surfaces = [
        String(error),
        (error as Error).stack ?? '',
        JSON.stringify(error),
        JSON.stringify(pool.ledger.snapshot()),
        JSON.stringify(server.log),
        ...writes,
      ];
      for (const text of surfaces) expect(text).not.toContain(KEY);
    } finally {
      spyOut.mockRestore();
      spyErr.mockRestore();
    }
  });
});

describe('model pool cache', () => {
  it('repeats a finished batch with zero requests, and keeps samples independent', async () => {
    const cacheDir = join(dir, 'cache');
    const make = () =>
      createModelPool({
        models: { generator: anthropic() },
        concurrency: 4,
        env,
        cacheDir,
        retry: fastRetry,
      });
    pool = make();
    const batch = (p: ModelPool) =>
      Promise.all(Array.from({ length: 20 }, (_, i) => p.client('generator').complete(ask(`case ${i}`))));
    const first = await batch(pool);
    expect(server.log).toHaveLength(20);
    expect(first.every((r) => r.cached === false)).toBe(true);
    await pool.close();

    server.reset();
    pool = make();
    const again: CompletionResult[] = await batch(pool);
    expect(server.log).toHaveLength(0);
    expect(again.map((r) => r.text)).toEqual(first.map((r) => r.text));
    expect(again.every((r) => r.cached === true && r.costUsd === 0)).toBe(true);
    expect(again[0]?.originalCostUsd).toBeCloseTo(first[0]?.costUsd ?? Number.NaN, 12);
    expect(pool.ledger.snapshot().total).toMatchObject({ calls: 20, cachedCalls: 20, usd: 0 });
    expect(pool.ledger.snapshot().total.cachedUsd).toBeGreaterThan(0);

    const client = pool.client('generator');
    await Promise.all([0, 1, 2].map((sampleIndex) => client.complete(ask('sampled', { sampleIndex }))));
    expect(server.log).toHaveLength(3);
    await Promise.all([0, 1, 2].map((sampleIndex) => client.complete(ask('sampled', { sampleIndex }))));
    expect(server.log).toHaveLength(3);
  });

  it('keeps tool calls in the cache and tells apart calls that differ only in tools, output or a tool turn', async () => {
    const cacheDir = join(dir, 'cache-tools');
    const make = () => createModelPool({ models: { generator: anthropic() }, concurrency: 2, env, cacheDir });
    server.configure({
      respond: () => ({
        text: 'Checking.',
        toolCalls: [{ id: 'toolu_1', name: 'lookup', arguments: { n: 7 } }],
      }),
    });
    const tool = { name: 'lookup', parameters: { type: 'object', properties: { n: { type: 'number' } } } };
    const history = (toolCallId: string) => [
      { role: 'user' as const, content: 'find 7' },
      {
        role: 'assistant' as const,
        content: '',
        toolCalls: [{ id: toolCallId, name: 'lookup', arguments: { n: 7 } }],
      },
      { role: 'tool' as const, toolCallId, content: 'none' },
    ];
    pool = make();
    const first = await pool.client('generator').complete(ask('find 7', { tools: [tool] }));
    expect(first.toolCalls).toEqual([{ id: 'toolu_1', name: 'lookup', arguments: { n: 7 } }]);
    await pool.close();

    // A resumed run's pool reads the entry back, tool calls and all, without a request.
    server.reset();
    pool = make();
    const client = pool.client('generator');
    const again = await client.complete(ask('find 7', { tools: [tool] }));
    expect(server.log).toHaveLength(0);
    expect(again).toMatchObject({ cached: true, text: 'Checking.', toolCalls: first.toolCalls });

    const variants = [
      ask('find 7'),
      ask('find 7', { tools: [{ ...tool, description: 'by number' }] }),
      ask('find 7', { tools: [tool], output: { name: 'o', schema: { type: 'object' } } }),
      ask('find 7', { tools: [tool], output: { name: 'o', schema: { type: 'array' } } }),
      { messages: history('call_1'), tools: [tool] },
      { messages: history('call_2'), tools: [tool] },
    ];
    for (const request of variants) expect((await client.complete(request)).cached).toBe(false);
    expect(server.log).toHaveLength(variants.length);
  });

  it('never caches errors', async () => {
    pool = createModelPool({
      models: { generator: anthropic() },
      concurrency: 4,
      env,
      cacheDir: join(dir, 'cache-errors'),
      retry: fastRetry,
    });
    server.queueFaults('bad_request');
    await expect(pool.client('generator').complete(ask('flaky'))).rejects.toMatchObject({
      kind: 'bad_request',
    });
    const ok = await pool.client('generator').complete(ask('flaky'));
    expect(ok.cached).toBe(false);
    expect(server.log).toHaveLength(2);
    expect(pool.ledger.snapshot().total).toMatchObject({ calls: 2, failedCalls: 1 });
  });

  it('makes one request for identical calls in flight together', async () => {
    server.configure({ latencyMs: 30 });
    pool = createModelPool({
      models: { generator: anthropic() },
      concurrency: 4,
      env,
      cacheDir: join(dir, 'cache-coalesce'),
    });
    const [a, b] = await Promise.all([
      pool.client('generator').complete(ask('same')),
      pool.client('generator').complete(ask('same')),
    ]);
    expect(server.log).toHaveLength(1);
    expect(a?.text).toBe(b?.text);
    expect([a?.cached, b?.cached].sort()).toEqual([false, true]);
  });
});

describe('model pool abort', () => {
  it('aborts every call in flight within a second and never retries them', async () => {
    server.configure({ faultRate: { rate: 1, seed: 1, kinds: ['hang'] } });
    const controller = new AbortController();
    pool = createModelPool({
      models: { generator: anthropic() },
      concurrency: 4,
      env,
      signal: controller.signal,
      retry: fastRetry,
    });
    const client = pool.client('generator');
    const calls = Array.from({ length: 6 }, (_, i) =>
      client.complete(ask(`hang ${i}`)).catch((e: unknown) => e),
    );
    await vi.waitFor(() => expect(server.inFlight).toBe(4));
    const started = performance.now();
    controller.abort();
    const errors = await Promise.all(calls);
    expect(performance.now() - started).toBeLessThan(1000);
    for (const error of errors) expect(error).toMatchObject({ kind: 'aborted' });
    expect(server.log).toHaveLength(4);
    await expect(client.complete(ask('after'))).rejects.toMatchObject({ kind: 'aborted' });
  });

  it('close() aborts calls in flight', async () => {
    server.configure({ faultRate: { rate: 1, seed: 1, kinds: ['hang'] } });
    const local = createModelPool({ models: { generator: anthropic() }, concurrency: 2, env });
    const call = local
      .client('generator')
      .complete(ask('x'))
      .catch((e: unknown) => e);
    await vi.waitFor(() => expect(server.inFlight).toBe(1));
    await local.close();
    expect(await call).toMatchObject({ kind: 'aborted' });
  });

  it('refuses roles without a model entry', () => {
    pool = createModelPool({
      models: { generator: anthropic(), judge: { command: ['node', 'judge.mjs'] } },
      concurrency: 1,
      env,
    });
    expect(pool.has('judge')).toBe(false);
    expect(() => pool?.client('judge')).toThrow(/judge/);
    expect(() => pool?.client('grader')).toThrow(/grader/);
  });
});
