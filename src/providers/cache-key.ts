/**
 * The content address of a call: everything that can change the answer — provider, model,
 * endpoint, every parameter, the exact messages — plus the sample index, so repeated samples
 * stay independent while re-running finished work is free. Keys and secrets never enter it.
 */
import { sha256Json } from '../sha256.js';
import type { ModelEntry } from '../experiment/schema.js';
import { endpointKey } from './limiter.js';
import type { CompletionRequest } from './types.js';

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
  return sha256Json(cacheKeyMaterial(entry, request, env));
}
