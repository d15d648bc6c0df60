/**
 * OpenAI Chat Completions through the `openai` SDK (POST {base}/chat/completions,
 * non-streaming): OpenAI itself and every compatible server (Ollama, vLLM, LM Studio,
 * llama.cpp, OpenRouter). Sends no Authorization header when no key is set, which local
 * servers accept. Conversations with tool turns, tools and structured output are mapped by
 * openai-shape.ts (which also says how the system role and `strict` are chosen).
 */
import OpenAI from 'openai';
import type { ModelEntry } from '../../experiment/schema.js';
import { apiKeyEnvName, keyIsRequired, readApiKey, resolveBaseUrl } from '../env.js';
import { callSdk, errorMessageText, type SdkApiError } from '../http/sdk-call.js';
import { costOrNull, resolvePrice } from '../prices.js';
import { type CompletionRequest, type CompletionResult, type Provider, ProviderError } from '../types.js';
import type { HttpProviderDeps } from './anthropic.js';
import { openaiUsage } from './usage.js';
import { DEFAULT_HTTP_TIMEOUT_S, isRecord, timeoutMsOf } from './defaults.js';
import {
  isReasoningModel,
  openAiResponseFormat,
  readOpenAiToolCalls,
  toOpenAiMessages,
  toOpenAiTools,
} from './openai-shape.js';
import { monotonicMs } from '../clock.js';

export function buildOpenAiBody(entry: ModelEntry, request: CompletionRequest): Record<string, unknown> {
  const system = request.system ?? entry.system;
  const temperature = request.temperature ?? entry.temperature;
  const maxTokens = request.maxTokens ?? entry.max_tokens;
  const params = { ...(entry.params ?? {}), ...(request.params ?? {}) };
  const model = entry.model ?? '';
  // OpenAI's reasoning models refuse `max_tokens` and want `max_completion_tokens`.
  const limitKey =
    'max_completion_tokens' in params || isReasoningModel(model) ? 'max_completion_tokens' : 'max_tokens';
  return {
    ...params,
    model,
    messages: toOpenAiMessages(model, system, request.messages),
    ...(temperature === undefined ? {} : { temperature }),
    ...(maxTokens === undefined ? {} : { [limitKey]: maxTokens }),
    ...(request.tools === undefined || request.tools.length === 0
      ? {}
      : { tools: toOpenAiTools(request.tools) }),
    ...(request.output === undefined ? {} : { response_format: openAiResponseFormat(request.output) }),
  };
}

export function parseOpenAiResponse(
  json: unknown,
  label: string,
): Omit<CompletionResult, 'costUsd' | 'latencyMs'> {
  if (!isRecord(json)) throw new ProviderError('malformed', `${label}: the response is not a JSON object`);
  if (json['error'] !== undefined && json['choices'] === undefined) {
    throw new ProviderError('malformed', `${label}: the server answered 200 with an error body`);
  }
  const choice = Array.isArray(json['choices']) ? json['choices'][0] : undefined;
  if (!isRecord(choice) || !isRecord(choice['message'])) {
    throw new ProviderError('malformed', `${label}: the response has no choices[0].message`);
  }
  const message = choice['message'];
  const content = message['content'];
  const refusal = message['refusal'];
  const text = typeof content === 'string' ? content : typeof refusal === 'string' ? refusal : '';
  const usage = isRecord(json['usage']) ? json['usage'] : {};
  const stopReason = typeof choice['finish_reason'] === 'string' ? choice['finish_reason'] : undefined;
  const toolCalls = readOpenAiToolCalls(message);
  return {
    text,
    ...(toolCalls.length === 0 ? {} : { toolCalls }),
    usage: openaiUsage(usage),
    ...(stopReason === undefined ? {} : { stopReason }),
  };
}

/**
 * A client for one entry: base URL, key, organisation and project passed explicitly so the
 * SDK reads none of them from the environment, its retries off (ours wrap it) and its logging
 * off (the runner owns the terminal). The SDK insists on a key; with none, the placeholder is
 * never sent because the Authorization header is removed. Headers a user puts in
 * OPENAI_CUSTOM_HEADERS are still sent: that is what it is for.
 */
export function createOpenAiClient(baseURL: string, apiKey: string | undefined, timeoutMs: number): OpenAI {
  return new OpenAI({
    baseURL,
    apiKey: apiKey ?? 'none',
    organization: null,
    project: null,
    maxRetries: 0,
    timeout: timeoutMs,
    logLevel: 'off',
    ...(apiKey === undefined ? { defaultHeaders: { authorization: null } } : {}),
  });
}

/** The SDK keeps only the body's `error` field; put it back where classifyHttpError reads it. */
export function openAiErrorBodyText(error: SdkApiError): string {
  return error.error === undefined ? errorMessageText(error) : JSON.stringify({ error: error.error });
}

export function createOpenAiProvider(entry: ModelEntry, deps: HttpProviderDeps): Provider {
  const model = entry.model ?? '';
  const label = `OpenAI-compatible (${model})`;
  const now = deps.now ?? monotonicMs;
  const price = resolvePrice(entry);
  const timeoutMs = timeoutMsOf(entry, DEFAULT_HTTP_TIMEOUT_S);
  // One client per entry, made on the first call (the key is read then) and kept while the key is.
  let client: { key: string | undefined; sdk: OpenAI } | undefined;
  return {
    name: 'openai',
    model,
    async complete(request) {
      const keyEnv = apiKeyEnvName(entry);
      const key = readApiKey(entry, deps.env);
      if (model === '') throw new ProviderError('bad_request', `${label}: no model is configured`);
      if (key === undefined && keyIsRequired(entry, deps.env)) {
        throw new ProviderError('auth', `${keyEnv ?? 'OPENAI_API_KEY'} is not set; ${label} needs it`);
      }
      if (client === undefined || client.key !== key) {
        client = { key, sdk: createOpenAiClient(resolveBaseUrl(entry, deps.env), key, timeoutMs) };
      }
      const sdk = client.sdk;
      const body = buildOpenAiBody(entry, request);
      const started = now();
      const json = await callSdk({
        signal: request.signal,
        timeoutMs,
        errors: OpenAI,
        errorBodyText: openAiErrorBodyText,
        http: { label, keyEnv, keySent: key !== undefined, secrets: [key] },
        // The body carries the entry's params as they are (whatever a compatible server takes),
        // so it is posted as built rather than through the typed `chat.completions.create`.
        send: (signal) =>
          sdk.post('/chat/completions', { body, signal, timeout: timeoutMs, headers: request.headers }),
      });
      const parsed = parseOpenAiResponse(json, label);
      return { ...parsed, costUsd: costOrNull(price, parsed.usage), latencyMs: now() - started };
    },
  };
}
