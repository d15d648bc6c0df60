/**
 * The Anthropic Messages and OpenAI Chat Completions wire formats as the fake LLM server
 * speaks them: request normalisation, success bodies, and the answer to each injected fault.
 */
import type { IncomingHttpHeaders } from 'node:http';

export type FakeApi = 'anthropic' | 'openai';

export interface FakeMessage {
  role: string;
  content: string;
}

export interface FakeRequest {
  api: FakeApi;
  model: string;
  system?: string;
  messages: FakeMessage[];
  temperature?: number;
  max_tokens?: number;
  body: Record<string, unknown>;
  headers: IncomingHttpHeaders;
  path: string;
  index: number;
}

export type FaultKind =
  | 'server_error'
  | 'unavailable'
  | 'overloaded'
  | 'rate_limit'
  | 'unauthorized'
  | 'forbidden'
  | 'bad_request'
  | 'not_found'
  | 'credit'
  | 'malformed'
  | 'empty'
  | 'truncated'
  | 'hang';

export type FaultSpec =
  | FaultKind
  | { kind: FaultKind; retryAfterS?: number; retryAfterMs?: number; message?: string };

export interface ReplySpec {
  text?: string;
  usage?: { input_tokens?: number; output_tokens?: number };
  stopReason?: string;
  status?: number;
  headers?: Record<string, string>;
  rawBody?: string;
  fault?: FaultSpec;
}

export type Respond = (req: FakeRequest) => string | ReplySpec | Promise<string | ReplySpec>;

export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((block) =>
        typeof block === 'object' && block !== null && 'text' in block ? String(block.text) : '',
      )
      .join('');
  }
  return '';
}

export function apiOf(method: string, path: string): FakeApi | 'unknown' {
  if (method !== 'POST') return 'unknown';
  if (path === '/v1/messages') return 'anthropic';
  if (path === '/v1/chat/completions') return 'openai';
  return 'unknown';
}

export function normalise(
  api: FakeApi,
  body: Record<string, unknown>,
  headers: IncomingHttpHeaders,
  path: string,
  index: number,
): FakeRequest {
  const raw = Array.isArray(body['messages']) ? (body['messages'] as Record<string, unknown>[]) : [];
  const messages = raw.map((m) => ({ role: String(m['role']), content: textOf(m['content']) }));
  let system = api === 'anthropic' && body['system'] !== undefined ? textOf(body['system']) : undefined;
  if (api === 'openai') {
    const systems = messages.filter((m) => m.role === 'system' || m.role === 'developer');
    if (systems.length > 0) system = systems.map((m) => m.content).join('\n');
  }
  const maxTokens = body['max_tokens'] ?? body['max_completion_tokens'];
  return {
    api,
    model: String(body['model'] ?? ''),
    ...(system === undefined ? {} : { system }),
    messages:
      api === 'openai' ? messages.filter((m) => m.role !== 'system' && m.role !== 'developer') : messages,
    ...(typeof body['temperature'] === 'number' ? { temperature: body['temperature'] } : {}),
    ...(typeof maxTokens === 'number' ? { max_tokens: maxTokens } : {}),
    body,
    headers,
    path,
    index,
  };
}

export function presentedKey(headers: IncomingHttpHeaders): string | undefined {
  const xKey = headers['x-api-key'];
  if (typeof xKey === 'string' && xKey !== '') return xKey;
  const auth = headers['authorization'];
  if (typeof auth === 'string' && auth.startsWith('Bearer ') && auth.length > 7) return auth.slice(7);
  return undefined;
}

export function errorBody(
  api: FakeApi | 'unknown',
  type: string,
  message: string,
  code: string | null,
): string {
  if (api === 'anthropic') return JSON.stringify({ type: 'error', error: { type, message } });
  return JSON.stringify({ error: { message, type, code, param: null } });
}

export interface Planned {
  status: number;
  body: string;
  headers: Record<string, string>;
}

export function planFault(
  api: FakeApi | 'unknown',
  spec: Exclude<FaultSpec, string>,
): Planned | 'hang' | 'truncated' {
  const a = api === 'anthropic';
  const json = { 'content-type': 'application/json' };
  const msg = spec.message;
  switch (spec.kind) {
    case 'hang':
    case 'truncated':
      return spec.kind;
    case 'malformed':
      return {
        status: 200,
        body: '<html>upstream proxy error</html>',
        headers: { 'content-type': 'text/plain' },
      };
    case 'empty':
      return { status: 200, body: '', headers: json };
    case 'rate_limit': {
      const headers: Record<string, string> = { ...json };
      if (spec.retryAfterS !== undefined) headers['retry-after'] = String(spec.retryAfterS);
      if (spec.retryAfterMs !== undefined) headers['retry-after-ms'] = String(spec.retryAfterMs);
      const body = a
        ? errorBody(api, 'rate_limit_error', msg ?? 'Number of requests has exceeded your rate limit', null)
        : errorBody(api, 'requests', msg ?? 'Rate limit reached for requests', 'rate_limit_exceeded');
      return { status: 429, body, headers };
    }
    case 'credit':
      return a
        ? {
            status: 400,
            headers: json,
            body: errorBody(
              api,
              'invalid_request_error',
              msg ??
                'Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.',
              null,
            ),
          }
        : {
            status: 429,
            headers: json,
            body: errorBody(
              api,
              'insufficient_quota',
              msg ?? 'You exceeded your current quota, please check your plan and billing details.',
              'insufficient_quota',
            ),
          };
    default: {
      const table: Record<string, [number, string, string, string | null]> = {
        server_error: [500, a ? 'api_error' : 'server_error', 'Internal server error', null],
        unavailable: [503, a ? 'api_error' : 'server_error', 'Service unavailable', null],
        overloaded: [529, 'overloaded_error', 'Overloaded', null],
        unauthorized: [
          401,
          a ? 'authentication_error' : 'invalid_request_error',
          a ? 'invalid x-api-key' : 'Incorrect API key provided',
          a ? null : 'invalid_api_key',
        ],
        forbidden: [403, a ? 'permission_error' : 'invalid_request_error', 'Permission denied', null],
        bad_request: [400, 'invalid_request_error', 'Invalid request', null],
        not_found: [
          404,
          a ? 'not_found_error' : 'invalid_request_error',
          'model: not found',
          'model_not_found',
        ],
      };
      const [status, type, message, code] = table[spec.kind] ?? [500, 'api_error', 'error', null];
      return { status, headers: json, body: errorBody(api, type, msg ?? message, code) };
    }
  }
}

export function estimateTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

export function successBody(req: FakeRequest, reply: ReplySpec): string {
  const text = reply.text ?? 'ok';
  const promptChars = (req.system ?? '') + req.messages.map((m) => m.content).join('');
  const input = reply.usage?.input_tokens ?? estimateTokens(promptChars);
  const output = reply.usage?.output_tokens ?? estimateTokens(text);
  if (req.api === 'anthropic') {
    return JSON.stringify({
      id: `msg_fake_${req.index}`,
      type: 'message',
      role: 'assistant',
      model: req.model,
      content: [{ type: 'text', text }],
      stop_reason: reply.stopReason ?? 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: input, output_tokens: output },
    });
  }
  return JSON.stringify({
    id: `chatcmpl-fake-${req.index}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: req.model,
    choices: [
      { index: 0, message: { role: 'assistant', content: text }, finish_reason: reply.stopReason ?? 'stop' },
    ],
    usage: { prompt_tokens: input, completion_tokens: output, total_tokens: input + output },
  });
}
