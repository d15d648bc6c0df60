/**
 * The content address of a call: everything that can change the answer — provider, model,
 * endpoint, every parameter, the exact messages (tool calls and the calls tool turns answer
 * included), the tools offered and the output schema — plus the sample index, so repeated
 * samples stay independent while re-running finished work is free. Keys and secrets never
 * enter it. What a plain request (no tool turns, tools or schema) did not have is left out
 * rather than set empty, so its key, and a resumed run's cache, stay what they were.
 */
import { sha256Json } from '../sha256.js';
import type { ModelEntry } from '../experiment/schema.js';
import { endpointKey } from './limiter.js';
import type { ChatMessage, CompletionRequest } from './types.js';

function messageMaterial(message: ChatMessage) {
  if (message.role === 'tool') {
    return { role: message.role, content: message.content, toolCallId: message.toolCallId };
  }
  const calls = message.role === 'assistant' ? (message.toolCalls ?? []) : [];
  return {
    role: message.role,
    content: message.content,
    ...(calls.length === 0 ? {} : { toolCalls: calls }),
  };
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
    messages: request.messages.map(messageMaterial),
    ...(request.tools === undefined || request.tools.length === 0 ? {} : { tools: request.tools }),
    ...(request.output === undefined ? {} : { output: request.output }),
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
