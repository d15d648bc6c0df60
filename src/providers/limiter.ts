/**
 * One concurrency limit per model endpoint (provider plus base URL, binary or argv), shared
 * by every role that talks to it — the judge's proxied calls included — so two stages never
 * double the load on one server. The limit is the smallest `concurrency` any role sets for
 * that endpoint, and never above the experiment's.
 */
import pLimit, { type LimitFunction } from 'p-limit';
import type { ModelEntry } from '../experiment/schema.js';
import { resolveBaseUrl } from './env.js';
import { providerRecord } from './registry.js';

/** One server, as the provider's registry row names it (base URL, binary or argv). */
export function endpointKey(entry: ModelEntry, env: NodeJS.ProcessEnv): string {
  return providerRecord(entry.provider).endpoint(entry, env, resolveBaseUrl(entry, env));
}

export interface EndpointLimiter {
  /** Runs `task` once the entry's endpoint has a free slot. */
  run<T>(entry: ModelEntry, task: () => Promise<T>): Promise<T>;
  limitOf(entry: ModelEntry): number;
}

export function createEndpointLimiter(
  entries: readonly ModelEntry[],
  experimentConcurrency: number,
  env: NodeJS.ProcessEnv,
): EndpointLimiter {
  const limits = new Map<string, number>();
  for (const entry of entries) {
    const key = endpointKey(entry, env);
    const wanted = Math.min(entry.concurrency ?? experimentConcurrency, experimentConcurrency);
    limits.set(key, Math.max(1, Math.min(limits.get(key) ?? wanted, wanted)));
  }
  const gates = new Map<string, LimitFunction>();
  const gateFor = (entry: ModelEntry): LimitFunction => {
    const key = endpointKey(entry, env);
    let gate = gates.get(key);
    if (gate === undefined) {
      gate = pLimit(limits.get(key) ?? Math.max(1, experimentConcurrency));
      gates.set(key, gate);
    }
    return gate;
  };
  return {
    run: (entry, task) => gateFor(entry)(task),
    limitOf: (entry) => gateFor(entry).concurrency,
  };
}
