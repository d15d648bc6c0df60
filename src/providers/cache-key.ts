/**
 * The content address of a call: everything that can change the answer — provider, model,
 * endpoint, every parameter, the exact messages — plus the sample index, so repeated samples
 * stay independent while re-running finished work is free. Keys and secrets never enter it.
 */
import { createHash } from 'node:crypto';
import type { ModelEntry } from '../experiment/schema.js';
import { endpointKey } from './limiter.js';
import type { CompletionRequest } from './types.js';

/** JSON with object keys sorted, so `{a, b}` and `{b, a}` hash alike. */
export function stableStringify(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableStringify(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The effective inputs of a call, the entry's defaults filled in as the adapters fill them. */
export function cacheKeyMaterial(entry: ModelEntry, request: CompletionRequest, env: NodeJS.ProcessEnv) {
  return {
    v: 1,
    provider: entry.provider,
    model: entry.model ?? null,
    endpoint: endpointKey(entry, env),
    input: entry.input ?? null,
    system: request.system ?? entry.system ?? null,
    temperature: request.temperature ?? entry.temperature ?? null,
    maxTokens: request.maxTokens ?? entry.max_tokens ?? null,
    params: { ...(entry.params ?? {}), ...(request.params ?? {}) },
    messages: request.messages.map((m) => ({ role: m.role, content: m.content })),
    sampleIndex: request.sampleIndex ?? 0,
  };
}

export function computeCacheKey(
  entry: ModelEntry,
  request: CompletionRequest,
  env: NodeJS.ProcessEnv,
): string {
  return createHash('sha256')
    .update(stableStringify(cacheKeyMaterial(entry, request, env)))
    .digest('hex');
}
