/**
 * The two wire formats the loopback proxy speaks (Anthropic Messages, OpenAI Chat
 * Completions, non-streaming, text only), translated to and from our CompletionRequest /
 * CompletionResult. The model name and any extra fields a request carries are ignored: the
 * run's judge or grader entry decides the model, its params and its key. An Anthropic request's
 * `cache_control` marks (docs/design/cost-engine.md) come through as the request's stable prefix
 * (`cacheable`), so the runner's own call marks the same prefix.
 */
import type { CompletionRequest, CompletionResult } from '../providers/types.js';
import { ProviderError } from '../providers/types.js';
import { isRecord } from '../is-record.js';

export type WireApi = 'anthropic' | 'openai';

export type WireRequest = Pick<
  CompletionRequest,
  'system' | 'messages' | 'temperature' | 'maxTokens' | 'cacheable'
>;

export type ParsedWire = { ok: true; request: WireRequest } | { ok: false; message: string };

export interface WireReply {
  status: number;
  body: Record<string, unknown>;
}

/** A string, or a list of `{type: 'text', text}` blocks; anything else (images, tools) is refused. */
function textOf(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  const parts: string[] = [];
  for (const block of content) {
    if (!isRecord(block) || block['type'] !== 'text' || typeof block['text'] !== 'string') return undefined;
    parts.push(block['text']);
  }
  return parts.join('');
}

function marked(block: unknown): boolean {
  return isRecord(block) && block['cache_control'] !== undefined;
}

/**
 * An Anthropic request's stable prefix: marked when its system or first message carries a
 * `cache_control` mark, its lead the first message's text up to the end of its last marked block.
 */
function cacheableOf(body: Record<string, unknown>, messages: unknown[]): WireRequest['cacheable'] {
  const system = Array.isArray(body['system']) && body['system'].some(marked);
  const first = isRecord(messages[0]) ? messages[0]['content'] : undefined;
  const blocks = Array.isArray(first) ? first : [];
  const last = blocks.findLastIndex(marked);
  if (!system && last < 0) return undefined;
  const lead = blocks.slice(0, last + 1).reduce((n: number, block) => n + (textOf([block])?.length ?? 0), 0);
  return { lead };
}

function numberOf(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

export function parseWireRequest(api: WireApi, body: unknown): ParsedWire {
  if (!isRecord(body)) return { ok: false, message: 'the body must be a JSON object' };
  if (body['stream'] === true) return { ok: false, message: 'streaming is not supported by this endpoint' };
  if (!Array.isArray(body['messages']) || body['messages'].length === 0) {
    return { ok: false, message: '`messages` must be a non-empty list' };
  }
  const systems: string[] = [];
  if (api === 'anthropic' && body['system'] !== undefined) {
    const system = textOf(body['system']);
    if (system === undefined) return { ok: false, message: '`system` must be text' };
    systems.push(system);
  }
  const messages: CompletionRequest['messages'] = [];
  for (const [index, raw] of body['messages'].entries()) {
    const role = isRecord(raw) ? raw['role'] : undefined;
    const content = isRecord(raw) ? textOf(raw['content']) : undefined;
    if (content === undefined) return { ok: false, message: `messages[${index}] must have text content` };
    if (api === 'openai' && (role === 'system' || role === 'developer')) systems.push(content);
    else if (role === 'user' || role === 'assistant') messages.push({ role, content });
    else return { ok: false, message: `messages[${index}].role must be user or assistant` };
  }
  if (messages.length === 0) return { ok: false, message: 'there is no user message' };
  // Nonsense is refused as the APIs refuse it; what is sensible is clamped to the role (proxy-sampling.ts).
  const temperature = numberOf(body['temperature']);
  if (body['temperature'] !== undefined && (temperature === undefined || temperature < 0 || temperature > 2))
    return { ok: false, message: '`temperature` must be a number from 0 to 2' };
  const limitKey = body['max_tokens'] !== undefined ? 'max_tokens' : 'max_completion_tokens';
  const maxTokens = numberOf(body[limitKey]);
  if (
    body[limitKey] !== undefined &&
    (maxTokens === undefined || !Number.isInteger(maxTokens) || maxTokens < 1)
  )
    return { ok: false, message: `\`${limitKey}\` must be a whole number of at least 1` };
  const cacheable = api === 'anthropic' ? cacheableOf(body, body['messages']) : undefined;
  return {
    ok: true,
    request: {
      ...(systems.length === 0 ? {} : { system: systems.join('\n\n') }),
      messages,
      ...(cacheable === undefined ? {} : { cacheable }),
      ...(temperature === undefined ? {} : { temperature }),
      ...(maxTokens === undefined ? {} : { maxTokens }),
    },
  };
}

const TO_ANTHROPIC_STOP: Record<string, string> = { stop: 'end_turn', length: 'max_tokens' };
const TO_OPENAI_STOP: Record<string, string> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  max_tokens: 'length',
};

export function formatWireReply(
  api: WireApi,
  result: CompletionResult,
  model: string,
  id: string,
): WireReply {
  const stop = result.stopReason;
  if (api === 'anthropic') {
    return {
      status: 200,
      body: {
        id: `msg_${id}`,
        type: 'message',
        role: 'assistant',
        model,
        content: [{ type: 'text', text: result.text }],
        stop_reason: stop === undefined ? 'end_turn' : (TO_ANTHROPIC_STOP[stop] ?? stop),
        stop_sequence: null,
        usage: { input_tokens: result.usage.inputTokens, output_tokens: result.usage.outputTokens },
      },
    };
  }
  return {
    status: 200,
    body: {
      id: `chatcmpl-${id}`,
      object: 'chat.completion',
      created: 0,
      model,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: result.text },
          finish_reason: stop === undefined ? 'stop' : (TO_OPENAI_STOP[stop] ?? stop),
        },
      ],
      usage: {
        prompt_tokens: result.usage.inputTokens,
        completion_tokens: result.usage.outputTokens,
        total_tokens: result.usage.inputTokens + result.usage.outputTokens,
      },
    },
  };
}

/** Each API's own error body, so the caller's SDK classifies it the way the real API would be. */
export function wireError(
  api: WireApi,
  status: number,
  anthropicType: string,
  openaiType: string,
  message: string,
  code: string | null = null,
): WireReply {
  if (api === 'anthropic')
    return { status, body: { type: 'error', error: { type: anthropicType, message } } };
  return { status, body: { error: { message, type: openaiType, code, param: null } } };
}

export function formatWireFailure(api: WireApi, error: unknown): WireReply {
  if (!(error instanceof ProviderError)) {
    return wireError(api, 500, 'api_error', 'server_error', 'the model call failed inside the runner');
  }
  const message = error.message;
  switch (error.kind) {
    case 'auth':
      return wireError(
        api,
        error.status === 403 ? 403 : 401,
        error.status === 403 ? 'permission_error' : 'authentication_error',
        'invalid_request_error',
        message,
        'invalid_api_key',
      );
    case 'credit':
      return api === 'anthropic'
        ? wireError(api, 400, 'invalid_request_error', '', `Your credit balance is too low: ${message}`)
        : wireError(api, 429, '', 'insufficient_quota', message, 'insufficient_quota');
    case 'bad_request':
      return wireError(api, 400, 'invalid_request_error', 'invalid_request_error', message);
    case 'rate_limit':
      return wireError(api, 429, 'rate_limit_error', 'requests', message, 'rate_limit_exceeded');
    case 'timeout':
      return wireError(api, 504, 'api_error', 'server_error', message);
    case 'aborted':
      return wireError(api, 503, 'api_error', 'server_error', message);
    default:
      return wireError(api, 502, 'api_error', 'server_error', message);
  }
}
