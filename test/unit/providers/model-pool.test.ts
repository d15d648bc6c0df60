import { describe, expect, it } from 'vitest';
import type { CachedCompletion, ResponseCache } from '../../../src/providers/cache.js';
import { spendSince } from '../../../src/loop/spend.js';
import { emptyTotals } from '../../../src/providers/ledger.js';
import { createModelPool } from '../../../src/providers/model-pool.js';
import { type CompletionRequest, type Provider, ProviderError } from '../../../src/providers/types.js';

function memoryCache(): ResponseCache & { store: Map<string, CachedCompletion> } {
  const store = new Map<string, CachedCompletion>();
  return { store, get: async (k) => store.get(k), put: async (k, v) => void store.set(k, v) };
}

function scripted(outcomes: (string | ProviderError)[]): Provider & { requests: CompletionRequest[] } {
  const requests: CompletionRequest[] = [];
  return {
    name: 'sim',
    model: 'scripted',
    requests,
    async complete(request) {
      requests.push(request);
      const next = outcomes.shift() ?? 'default';
      if (next instanceof ProviderError) throw next;
      return { text: next, usage: { inputTokens: 1, outputTokens: 1 }, costUsd: 0, latencyMs: 1 };
    },
  };
}

const noWait = { sleep: async () => {} };

describe('createModelPool', () => {
  it('labels simulator results and retries up to the entry’s max_retries', async () => {
    const provider = scripted([
      new ProviderError('server', 'a'),
      new ProviderError('timeout', 'b'),
      'third time',
    ]);
    const retried: string[] = [];
    const pool = createModelPool({
      models: { generator: { provider: 'sim', max_retries: 2 } },
      concurrency: 2,
      env: {},
      retry: noWait,
      createProvider: () => provider,
      onRetry: (role, event) => retried.push(`${role}:${event.error.kind}`),
    });
    const client = pool.client('generator');
    expect(client.simulated).toBe(true);
    const result = await client.complete({ messages: [{ role: 'user', content: 'x' }] });
    expect(result).toMatchObject({ text: 'third time', attempts: 3, simulated: true, cached: false });
    expect(retried).toEqual(['generator:server', 'generator:timeout']);
    expect(provider.requests.every((r) => r.signal instanceof AbortSignal)).toBe(true);
  });

  it('records failures with their kind and does not cache them', async () => {
    const cache = memoryCache();
    const pool = createModelPool({
      models: { mutator: { provider: 'anthropic', model: 'm', max_retries: 0 } },
      concurrency: 1,
      env: {},
      cache,
      retry: noWait,
      createProvider: () => scripted([new ProviderError('rate_limit', 'busy'), 'fine']),
    });
    const client = pool.client('mutator');
    await expect(client.complete({ messages: [{ role: 'user', content: 'x' }] })).rejects.toMatchObject({
      kind: 'rate_limit',
    });
    expect(cache.store.size).toBe(0);
    await client.complete({ messages: [{ role: 'user', content: 'x' }] });
    expect(cache.store.size).toBe(1);
    const [stored] = cache.store.values();
    expect(stored).toMatchObject({ v: 1, provider: 'anthropic', model: 'm', text: 'fine' });
    expect(stored).not.toHaveProperty('latencyMs');
    expect(pool.ledger.snapshot().byRole.mutator).toMatchObject({ calls: 2, failedCalls: 1 });
  });

  it('hits the cache for the same call and misses for another sample', async () => {
    const provider = scripted(['one', 'two']);
    const pool = createModelPool({
      models: { judge: { provider: 'sim' } },
      concurrency: 1,
      env: {},
      cache: memoryCache(),
      createProvider: () => provider,
    });
    const client = pool.client('judge');
    const ask = (sampleIndex: number) =>
      client.complete({ messages: [{ role: 'user', content: 'q' }], sampleIndex });
    expect((await ask(0)).text).toBe('one');
    expect(await ask(0)).toMatchObject({
      text: 'one',
      cached: true,
      costUsd: 0,
      originalCostUsd: 0,
      attempts: 0,
    });
    expect((await ask(1)).text).toBe('two');
    expect(provider.requests).toHaveLength(2);
  });

  // A CLI bills a failed attempt (ProviderError.costUsd); the answer after it may be unpriced.
  function billedThenAnswered(answerUsd: number | null): Provider {
    let attempt = 0;
    return {
      name: 'claude-cli',
      model: 'claude-unknown-9',
      async complete() {
        attempt += 1;
        if (attempt === 1) throw new ProviderError('server', 'overloaded', { costUsd: 0.01 });
        return { text: 'ok', usage: { inputTokens: 1, outputTokens: 1 }, costUsd: answerUsd, latencyMs: 1 };
      },
    };
  }

  const billedPool = (answerUsd: number | null) =>
    createModelPool({
      models: { generator: { provider: 'claude-cli', model: 'claude-unknown-9' } },
      concurrency: 1,
      env: {},
      retry: noWait,
      createProvider: () => billedThenAnswered(answerUsd),
    });

  it('counts the billed failed attempts of a call whose answer is unpriced, which stays unpriced', async () => {
    const pool = billedPool(null);
    const before = pool.ledger.snapshot();
    const result = await pool
      .client('generator')
      .complete({ messages: [{ role: 'user', content: 'x' }], account: 'c1' });
    expect(result).toMatchObject({ costUsd: null, failedCostUsd: 0.01, attempts: 2 });
    expect(pool.ledger.snapshot().byRole.generator).toEqual({
      ...emptyTotals(),
      calls: 1,
      unpricedCalls: 1,
      inputTokens: 1,
      outputTokens: 1,
      usd: 0.01,
    });
    expect(pool.ledger.snapshot().total).toMatchObject({ calls: 1, failedCalls: 0, usd: 0.01 });
    // The spend events (and so budget.usd) and the candidate's account see the money too.
    expect(spendSince(before, pool.ledger.snapshot(), { iteration: 1 })).toMatchObject([
      { type: 'spend', role: 'generator', usd: 0.01, calls: 1 },
    ]);
    expect(pool.ledger.settle('c1')).toBe(0.01);
  });

  it('folds the billed failed attempts into a priced answer’s cost', async () => {
    const pool = billedPool(0.02);
    const result = await pool.client('generator').complete({ messages: [{ role: 'user', content: 'x' }] });
    expect(result).not.toHaveProperty('failedCostUsd');
    expect(result.costUsd).toBeCloseTo(0.03, 10);
    const totals = pool.ledger.snapshot().byRole.generator;
    expect(totals).toMatchObject({ calls: 1, failedCalls: 0, unpricedCalls: 0 });
    expect(totals?.usd).toBeCloseTo(0.03, 10);
  });
});
