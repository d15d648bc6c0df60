/**
 * Our own retries around one provider call (the SDKs' are never used, so attempt counts are
 * honest): exponential backoff with jitter on retryable kinds, at least as long as the
 * server's Retry-After (capped at 60 s), never on auth, credit, bad requests, process
 * failures or aborts. Sleep and randomness are injected so tests run in milliseconds.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { ProviderError } from './types.js';

export const DEFAULT_MAX_RETRIES = 4;
export const MAX_RETRY_AFTER_MS = 60_000;

export type Sleep = (ms: number, signal: AbortSignal | undefined) => Promise<void>;

export interface RetryPolicy {
  maxRetries?: number;
  /** First backoff before jitter; doubles each retry. */
  baseDelayMs?: number;
  maxDelayMs?: number;
  sleep?: Sleep;
  /** Returns [0, 1). */
  random?: () => number;
}

export interface RetryEvent {
  attempt: number;
  error: ProviderError;
  delayMs: number;
}

export interface RetryOptions extends RetryPolicy {
  signal?: AbortSignal | undefined;
  onRetry?: (event: RetryEvent) => void;
}

export const realSleep: Sleep = async (ms, signal) => {
  await delay(ms, undefined, signal === undefined ? undefined : { signal });
};

/** Backoff for the retry after `attempt` failed attempts: half fixed, half jitter, never below Retry-After. */
export function backoffDelay(
  attempt: number,
  error: ProviderError,
  policy: Required<Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'>> & { random: () => number },
): number {
  const exponential = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  const jittered = exponential / 2 + (exponential / 2) * policy.random();
  const asked = error.retryAfterMs === undefined ? 0 : Math.min(error.retryAfterMs, MAX_RETRY_AFTER_MS);
  return Math.max(jittered, asked);
}

export interface RetryOutcome<T> {
  value: T;
  attempts: number;
  /** What the attempts that failed before the last were billed, when one says so. */
  failedCostUsd?: number;
}

/**
 * Calls `run` up to maxRetries + 1 times. Errors that are not ProviderErrors are bugs and
 * propagate at once; so do non-retryable ProviderErrors.
 */
export async function withRetries<T>(
  run: (attempt: number) => Promise<T>,
  options: RetryOptions = {},
): Promise<RetryOutcome<T>> {
  const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
  const policy = {
    baseDelayMs: options.baseDelayMs ?? 1000,
    maxDelayMs: options.maxDelayMs ?? 30_000,
    random: options.random ?? Math.random,
  };
  const sleep = options.sleep ?? realSleep;
  // What failed attempts were billed (a CLI reports it): spent whatever the last attempt does.
  let failedCostUsd = 0;
  for (let attempt = 1; ; attempt++) {
    if (options.signal?.aborted) throw new ProviderError('aborted', 'call aborted');
    try {
      const value = await run(attempt);
      return { value, attempts: attempt, ...(failedCostUsd > 0 ? { failedCostUsd } : {}) };
    } catch (error) {
      if (!(error instanceof ProviderError) || !error.retryable || attempt > maxRetries) {
        const gaveUp = error instanceof ProviderError && error.retryable && attempt > 1;
        if (error instanceof ProviderError && (gaveUp || failedCostUsd > 0)) {
          const costUsd = failedCostUsd + (error.costUsd ?? 0);
          throw new ProviderError(
            error.kind,
            gaveUp ? `${error.message} (gave up after ${attempt} attempts)` : error.message,
            {
              ...(error.status === undefined ? {} : { status: error.status }),
              ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }),
              ...(costUsd > 0 ? { costUsd } : {}),
              cause: error,
            },
          );
        }
        throw error;
      }
      failedCostUsd += error.costUsd ?? 0;
      const delayMs = backoffDelay(attempt, error, policy);
      options.onRetry?.({ attempt, error, delayMs });
      if (options.signal?.aborted) throw new ProviderError('aborted', 'call aborted', { cause: error });
      try {
        await sleep(delayMs, options.signal);
      } catch (sleepError) {
        throw new ProviderError('aborted', 'call aborted while waiting to retry', { cause: sleepError });
      }
    }
  }
}
