import { describe, expect, it, vi } from 'vitest';
import { backoffDelay, MAX_RETRY_AFTER_MS, withRetries } from '../../../src/providers/retry.js';
import { ProviderError } from '../../../src/providers/types.js';

const policy = { baseDelayMs: 100, maxDelayMs: 1000, random: () => 0.5 };

describe('backoffDelay', () => {
  it('doubles per attempt with jitter in the upper half, capped', () => {
    const e = new ProviderError('server', 'x');
    expect(backoffDelay(1, e, policy)).toBe(75);
    expect(backoffDelay(2, e, policy)).toBe(150);
    expect(backoffDelay(3, e, policy)).toBe(300);
    expect(backoffDelay(10, e, policy)).toBe(750);
    expect(backoffDelay(1, e, { ...policy, random: () => 0 })).toBe(50);
    expect(backoffDelay(1, e, { ...policy, random: () => 0.999 })).toBeCloseTo(100, 0);
  });

  it('waits at least what Retry-After asks, but never more than 60 s', () => {
    expect(backoffDelay(1, new ProviderError('rate_limit', 'x', { retryAfterMs: 2000 }), policy)).toBe(2000);
    expect(backoffDelay(1, new ProviderError('rate_limit', 'x', { retryAfterMs: 10 }), policy)).toBe(75);
    expect(backoffDelay(1, new ProviderError('rate_limit', 'x', { retryAfterMs: 3_600_000 }), policy)).toBe(
      MAX_RETRY_AFTER_MS,
    );
  });
});

function failing(kinds: ProviderError[], value = 'done') {
  let i = 0;
  return vi.fn(async () => {
    const next = kinds[i++];
    if (next !== undefined) throw next;
    return value;
  });
}

describe('withRetries', () => {
  it('retries retryable kinds with the computed delays and reports attempts', async () => {
    const sleeps: number[] = [];
    const run = failing([
      new ProviderError('server', 'a'),
      new ProviderError('rate_limit', 'b', { retryAfterMs: 500 }),
      new ProviderError('truncated', 'c'),
    ]);
    const onRetry = vi.fn();
    const out = await withRetries(run, {
      ...policy,
      sleep: async (ms) => {
        sleeps.push(ms);
      },
      onRetry,
    });
    expect(out).toEqual({ value: 'done', attempts: 4 });
    expect(sleeps).toEqual([75, 500, 300]);
    expect(onRetry).toHaveBeenCalledTimes(3);
  });

  it.each(['auth', 'credit', 'bad_request', 'process', 'aborted'] as const)(
    'never retries %s',
    async (kind) => {
      const run = failing([new ProviderError(kind, 'nope')]);
      await expect(withRetries(run, { sleep: async () => {} })).rejects.toMatchObject({ kind });
      expect(run).toHaveBeenCalledTimes(1);
    },
  );

  it('makes max_retries + 1 attempts, then gives up saying so', async () => {
    const run = failing(Array.from({ length: 10 }, () => new ProviderError('server', 'boom')));
    const error = await withRetries(run, { maxRetries: 2, sleep: async () => {} }).catch((e: unknown) => e);
    expect(run).toHaveBeenCalledTimes(3);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).kind).toBe('server');
    expect((error as ProviderError).message).toContain('gave up after 3 attempts');
  });

  it('counts what billed failed attempts cost: in the final error, or beside the value that follows', async () => {
    const billed = (kind: 'server' | 'malformed', costUsd: number) =>
      new ProviderError(kind, 'x', { costUsd });
    const gaveUp = await withRetries(
      failing([billed('server', 0.25), billed('malformed', 0.5), billed('server', 1)]),
      {
        maxRetries: 2,
        sleep: async () => {},
      },
    ).catch((e: unknown) => e);
    expect((gaveUp as ProviderError).costUsd).toBe(1.75);
    const out = await withRetries(failing([billed('malformed', 0.5)]), { sleep: async () => {} });
    expect(out).toEqual({ value: 'done', attempts: 2, failedCostUsd: 0.5 });
  });

  it('defaults to 4 retries', async () => {
    const run = failing(Array.from({ length: 10 }, () => new ProviderError('network', 'down')));
    await expect(withRetries(run, { sleep: async () => {} })).rejects.toThrow();
    expect(run).toHaveBeenCalledTimes(5);
  });

  it('does not start a backoff once aborted', async () => {
    const controller = new AbortController();
    const sleep = vi.fn(async () => {});
    const run = vi.fn(async () => {
      controller.abort();
      throw new ProviderError('server', 'a');
    });
    await expect(withRetries(run, { signal: controller.signal, sleep })).rejects.toMatchObject({
      kind: 'aborted',
    });
    expect(sleep).not.toHaveBeenCalled();
  });

  it('lets programming errors through at once', async () => {
    const run = vi.fn(async () => {
      throw new TypeError('bug');
    });
    await expect(withRetries(run, { sleep: async () => {} })).rejects.toBeInstanceOf(TypeError);
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('stops waiting when aborted during a backoff', async () => {
    const controller = new AbortController();
    const run = failing([new ProviderError('server', 'a'), new ProviderError('server', 'b')]);
    const promise = withRetries(run, {
      signal: controller.signal,
      sleep: (_ms, signal) =>
        new Promise((_resolve, reject) =>
          signal?.addEventListener('abort', () => reject(new Error('aborted'))),
        ),
    });
    controller.abort();
    await expect(promise).rejects.toMatchObject({ kind: 'aborted' });
    expect(run).toHaveBeenCalledTimes(1);
  });
});
