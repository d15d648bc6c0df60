/**
 * Anthropic Messages API through `@anthropic-ai/sdk` (POST {base}/v1/messages, non-streaming).
 * One attempt per call; retries, limits and caching wrap it from outside. Conversations with
 * tool turns, tools and structured output are mapped by anthropic-shape.ts.
 */
import Anthropic from '@anthropic-ai/sdk';
import type { ModelEntry } from '../../experiment/schema.js';
import { apiKeyEnvName, readApiKey, resolveBaseUrl } from '../env.js';
import { callSdk, errorMessageText, type SdkApiError } from '../http/sdk-call.js';
import { costOrNull, resolvePrice } from '../prices.js';
import { type CompletionRequest, type CompletionResult, type Provider, ProviderError } from '../types.js';
import {
  anthropicOutputConfig,
  cacheableSystem,
  markCacheableLead,
  readAnthropicToolCalls,
  toAnthropicMessages,
  toAnthropicTools,
} from './anthropic-shape.js';
import { anthropicUsage } from './usage.js';
import { DEFAULT_ANTHROPIC_MAX_TOKENS, DEFAULT_HTTP_TIMEOUT_S, isRecord, timeoutMsOf } from './defaults.js';
import { monotonicMs } from '../clock.js';

/**
 * The API version our request bodies and response reading are written against. The SDK would
 * send its own, newer one, with the key as a Bearer token; this one takes it as `x-api-key`,
 * as do the Anthropic-compatible servers and gateways people point `base_url` at.
 */
export const ANTHROPIC_VERSION = '2023-06-01';

export interface HttpProviderDeps {
  env: NodeJS.ProcessEnv;
  now?: () => number;
}

export function buildAnthropicBody(entry: ModelEntry, request: CompletionRequest): Record<string, unknown> {
  const system = request.system ?? entry.system;
  const temperature = request.temperature ?? entry.temperature;
  const maxTokens = request.maxTokens ?? entry.max_tokens;
  const params = { ...(entry.params ?? {}), ...(request.params ?? {}) };
  return {
    max_tokens: DEFAULT_ANTHROPIC_MAX_TOKENS,
    ...params,
    model: entry.model,
    messages:
      request.cacheable === undefined
        ? toAnthropicMessages(request.messages)
        : markCacheableLead(toAnthropicMessages(request.messages), request.cacheable.lead),
    ...(system === undefined || system === ''
      ? {}
      : { system: request.cacheable === undefined ? system : cacheableSystem(system) }),
    ...(temperature === undefined ? {} : { temperature }),
    ...(maxTokens === undefined ? {} : { max_tokens: maxTokens }),
    ...(request.tools === undefined || request.tools.length === 0
      ? {}
      : { tools: toAnthropicTools(request.tools) }),
    ...(request.output === undefined
      ? {}
      : { output_config: anthropicOutputConfig(request.output, params['output_config']) }),
  };
}

export function parseAnthropicResponse(
  json: unknown,
  label: string,
): Omit<CompletionResult, 'costUsd' | 'latencyMs'> {
  if (!isRecord(json) || !Array.isArray(json['content'])) {
    throw new ProviderError('malformed', `${label}: the response has no content list`);
  }
  const content: unknown[] = json['content'];
  const text = content
    .filter((block): block is Record<string, unknown> => isRecord(block) && block['type'] === 'text')
    .map((block) => String(block['text'] ?? ''))
    .join('');
  const usage = isRecord(json['usage']) ? json['usage'] : {};
  const stopReason = typeof json['stop_reason'] === 'string' ? json['stop_reason'] : undefined;
  const toolCalls = readAnthropicToolCalls(content);
  return {
    text,
    ...(toolCalls.length === 0 ? {} : { toolCalls }),
    usage: anthropicUsage(usage),
    ...(stopReason === undefined ? {} : { stopReason }),
  };
}

/**
 * A client for one entry: its base URL and key passed explicitly so the SDK reads neither
 * from the environment (nor looks for a credentials file), its retries off (ours wrap it), its
 * logging off (the runner owns the terminal) and no OpenTelemetry spans or trace headers.
 * Headers a user puts in ANTHROPIC_CUSTOM_HEADERS are still sent: that is what it is for.
 */
export function createAnthropicClient(baseURL: string, apiKey: string, timeoutMs: number): Anthropic {
  return new Anthropic({
    baseURL,
    apiKey,
    maxRetries: 0,
    timeout: timeoutMs,
    logLevel: 'off',
    openTelemetry: false,
    defaultHeaders: { 'anthropic-version': ANTHROPIC_VERSION, 'x-api-key': apiKey, authorization: null },
  });
}

/** The SDK keeps the whole error body (`{type: 'error', error: {…}}`) when it was JSON. */
export function anthropicErrorBodyText(error: SdkApiError): string {
  return error.error === undefined ? errorMessageText(error) : JSON.stringify(error.error);
}

export function createAnthropicProvider(entry: ModelEntry, deps: HttpProviderDeps): Provider {
  const model = entry.model ?? '';
  const label = `Anthropic (${model})`;
  const now = deps.now ?? monotonicMs;
  const price = resolvePrice(entry);
  const timeoutMs = timeoutMsOf(entry, DEFAULT_HTTP_TIMEOUT_S);
  // One client per entry, made on the first call (the key is read then) and kept while the key is.
  let client: { key: string; sdk: Anthropic } | undefined;
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
      if (client?.key !== key) {
        client = { key, sdk: createAnthropicClient(resolveBaseUrl(entry, deps.env), key, timeoutMs) };
      }
      const sdk = client.sdk;
      const body = buildAnthropicBody(entry, request);
      const started = now();
      const json = await callSdk({
        signal: request.signal,
        timeoutMs,
        errors: Anthropic,
        errorBodyText: anthropicErrorBodyText,
        http: { label, keyEnv, keySent: true, secrets: [key] },
        // Not `messages.create`: it prints a notice to the console on every call to a model
        // the SDK lists as deprecated, and only the runner writes to the terminal.
        send: (signal) =>
          sdk.post('/v1/messages', { body, signal, timeout: timeoutMs, headers: request.headers }),
      });
      const parsed = parseAnthropicResponse(json, label);
      return { ...parsed, costUsd: costOrNull(price, parsed.usage), latencyMs: now() - started };
    },
  };
}
