/**
 * Regression: retrying an invalid reply replayed the CACHED invalid reply. A retry after an
 * unusable reply (judge, grader, mutator) must ask the model and replace the cache entry,
 * so the retry is a real one and a later identical call gets the usable answer.
 */
import { describe, expect, it } from 'vitest';
import { runBuiltinGrader } from '../../../src/grader/builtin-grader.js';
import { runBuiltinJudge } from '../../../src/judge/builtin-judge.js';
import { buildMutatorFeedback } from '../../../src/loop/build-feedback.js';
import { proposeCandidates } from '../../../src/loop/propose.js';
import type { CachedCompletion, ResponseCache } from '../../../src/providers/cache.js';
import { createModelPool } from '../../../src/providers/model-pool.js';
import type { CompletionRequest, Provider } from '../../../src/providers/types.js';
import { feedbackInput, INCUMBENT_PROMPT } from '../loop/feedback-fixtures.js';

function memoryCache(): ResponseCache & { store: Map<string, CachedCompletion> } {
  const store = new Map<string, CachedCompletion>();
  return { store, get: async (k) => store.get(k), put: async (k, v) => void store.set(k, v) };
}

/** Answers each call with `reply(n)` (n counts from 1) and remembers what it was asked. */
function countingProvider(reply: (call: number) => string): Provider & { requests: CompletionRequest[] } {
  const requests: CompletionRequest[] = [];
  return {
    name: 'anthropic',
    model: 'm',
    requests,
    async complete(request) {
      requests.push(request);
      return {
        text: reply(requests.length),
        usage: { inputTokens: 1, outputTokens: 1 },
        costUsd: 0,
        latencyMs: 1,
      };
    },
  };
}

function poolWith(provider: Provider, cache: ResponseCache) {
  return createModelPool({
    models: {
      judge: { provider: 'anthropic', model: 'm' },
      grader: { provider: 'anthropic', model: 'm' },
      mutator: { provider: 'anthropic', model: 'm' },
    },
    concurrency: 1,
    env: {},
    cache,
    createProvider: () => provider,
  });
}

const validJudgeReply = JSON.stringify({ criteria_scores: { clarity: 4 }, reasoning: 'Clear.' });
const judgeOnce = (model: ReturnType<ReturnType<typeof poolWith>['client']>) =>
  runBuiltinJudge({
    outputs: [{ file: 'output_00.txt', text: 'an output' }],
    rubricText: '### Clarity',
    criteria: ['clarity'],
    model,
  });

describe('a retry of an invalid reply bypasses and replaces its cache entry', () => {
  it('model pool: a refresh skips the cached reply and overwrites it', async () => {
    const cache = memoryCache();
    const provider = countingProvider((n) => `answer ${n}`);
    const client = poolWith(provider, cache).client('judge');
    const ask = { messages: [{ role: 'user' as const, content: 'q' }] };
    expect((await client.complete(ask)).text).toBe('answer 1');
    expect(await client.complete({ ...ask, refresh: true })).toMatchObject({
      text: 'answer 2',
      cached: false,
    });
    expect(await client.complete(ask)).toMatchObject({ text: 'answer 2', cached: true });
    expect(provider.requests).toHaveLength(2);
    expect(cache.store.size).toBe(1);
  });

  it('judge: every retry reaches the model, and the usable reply replaces the invalid one', async () => {
    const provider = countingProvider((n) => (n < 3 ? 'not json' : validJudgeReply));
    const pool = poolWith(provider, memoryCache());
    const first = await judgeOnce(pool.client('judge'));
    expect(first.ok).toBe(true);
    expect(provider.requests).toHaveLength(3);
    // The next evaluation of the same text is served the usable reply at once.
    const again = await judgeOnce(pool.client('judge'));
    expect(again.ok).toBe(true);
    expect(provider.requests).toHaveLength(3);
  });

  it('judge: a reply that stays invalid is asked for three times, not once', async () => {
    const provider = countingProvider(() => 'not json');
    const result = await judgeOnce(poolWith(provider, memoryCache()).client('judge'));
    expect(result).toMatchObject({ ok: false, message: expect.stringMatching(/after 3 tries/) });
    expect(provider.requests).toHaveLength(3);
  });

  it('grader: every retry reaches the model', async () => {
    const provider = countingProvider(() => '{"expectations": "wrong shape"}');
    const result = await runBuiltinGrader({
      expectations: ['Says hello'],
      transcript: '# Transcript',
      outputs: [{ file: 'outputs/output_00.txt', text: 'hello' }],
      model: poolWith(provider, memoryCache()).client('grader'),
    });
    expect(result.ok).toBe(false);
    expect(provider.requests).toHaveLength(3);
  });

  it('mutator: a replayed proposal asks the model again for the retries it rejected before', async () => {
    const provider = countingProvider(() => 'no proposal here');
    const pool = poolWith(provider, memoryCache());
    const propose = () =>
      proposeCandidates({
        feedback: buildMutatorFeedback(feedbackInput()),
        incumbent: INCUMBENT_PROMPT,
        triedHashes: new Set(),
        count: 1,
        maxGrowth: 1.5,
        client: pool.client('mutator'),
      });
    expect(await propose()).toMatchObject([{ ok: false, reason: 'invalid', attempts: 3 }]);
    expect(provider.requests).toHaveLength(3);
    // A resumed run replays the first request from the cache; its retries are asked again.
    await propose();
    expect(provider.requests).toHaveLength(5);
    expect(provider.requests.slice(3).every((r) => r.refresh === true)).toBe(true);
  });
});
