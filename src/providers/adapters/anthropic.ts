/**
 * Anthropic Messages API over fetch (POST {base}/v1/messages, non-streaming). One attempt per
 * call; retries, limits and caching wrap it from outside.
 */
import type { ModelEntry } from '../../experiment/schema.js';
import { apiKeyEnvName, readApiKey, resolveBaseUrl } from '../env.js';
import { classifyHttpError } from '../http/classify-http-error.js';
import { postJson } from '../http/post-json.js';
import { costOrNull, resolvePrice } from '../prices.js';
import { type CompletionRequest, type CompletionResult, type Provider, ProviderError } from '../types.js';
import {
  countOf,
  DEFAULT_ANTHROPIC_MAX_TOKENS,
  DEFAULT_HTTP_TIMEOUT_S,
  isRecord,
  timeoutMsOf,
} from './defaults.js';
import { monotonicMs } from '../clock.js';

export const ANTHROPIC_VERSION = '2023-06-01';

export interface HttpProviderDeps {
  env: NodeJS.ProcessEnv;
  now?: () => number;
}

export function buildAnthropicBody(entry: ModelEntry, request: CompletionRequest): Record<string, unknown> {
  const system = request.system ?? entry.system;
  const temperature = request.temperature ?? entry.temperature;
  const maxTokens = request.maxTokens ?? entry.max_tokens;
  return {
    max_tokens: DEFAULT_ANTHROPIC_MAX_TOKENS,
    ...(entry.params ?? {}),
    ...(request.params ?? {}),
    model: entry.model,
    messages: request.messages.map((m) => ({ role: m.role, content: m.content })),
    ...(system === undefined || system === '' ? {} : { system }),
    ...(temperature === undefined ? {} : { temperature }),
    ...(maxTokens === undefined ? {} : { max_tokens: maxTokens }),
  };
}

export function parseAnthropicResponse(
  json: unknown,
  label: string,
): Omit<CompletionResult, 'costUsd' | 'latencyMs'> {
  if (!isRecord(json) || !Array.isArray(json['content'])) {
    throw new ProviderError('malformed', `${label}: the response has no content list`);
  }
  const text = json['content']
    .filter((block): block is Record<string, unknown> => isRecord(block) && block['type'] === 'text')
    .map((block) => String(block['text'] ?? ''))
    .join('');
  const usage = isRecord(json['usage']) ? json['usage'] : {};
  const stopReason = typeof json['stop_reason'] === 'string' ? json['stop_reason'] : undefined;
  return {
    text,
    usage: {
      inputTokens:
        countOf(usage['input_tokens']) +
        countOf(usage['cache_creation_input_tokens']) +
        countOf(usage['cache_read_input_tokens']),
      outputTokens: countOf(usage['output_tokens']),
    },
    ...(stopReason === undefined ? {} : { stopReason }),
  };
}

export function createAnthropicProvider(entry: ModelEntry, deps: HttpProviderDeps): Provider {
  const model = entry.model ?? '';
  const label = `Anthropic (${model})`;
  const now = deps.now ?? monotonicMs;
  const price = resolvePrice(entry);
  return {
    name: 'anthropic',
    model,
    async complete(request) {
      const keyEnv = apiKeyEnvName(entry);
      const key = readApiKey(entry, deps.env);
      if (model === '') throw new ProviderError('bad_request', `${label}: no model is configured`);
      if (key === undefined) {
        throw new ProviderError('auth', `${keyEnv ?? 'ANTHROPIC_API_KEY'} is not set; ${label} needs it`);
      }
      const started = now();
      const json = await postJson({
        url: `${resolveBaseUrl(entry, deps.env)}/v1/messages`,
        headers: { 'x-api-key': key, 'anthropic-version': ANTHROPIC_VERSION },
        body: buildAnthropicBody(entry, request),
        signal: request.signal,
        timeoutMs: timeoutMsOf(entry, DEFAULT_HTTP_TIMEOUT_S),
        label,
        classify: (status, text, headers) =>
          classifyHttpError(status, text, headers, { label, keyEnv, keySent: true, secrets: [key] }),
      });
      const parsed = parseAnthropicResponse(json, label);
      return { ...parsed, costUsd: costOrNull(price, parsed.usage), latencyMs: now() - started };
    },
  };
}
