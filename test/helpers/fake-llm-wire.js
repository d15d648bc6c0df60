/**
 * The Anthropic Messages, OpenAI Chat Completions and (through fake-responses-wire.js) OpenAI
 * Responses wire formats as the fake LLM server speaks them: request normalisation, success bodies, and the answer to each injected fault.
 * Plain JavaScript (types in fake-llm-wire.d.ts) so the benchmarks, run by node without a
 * TypeScript loader, share it with the tests.
 */
import { createHash } from 'node:crypto';
import { normaliseResponses, responsesBody } from './fake-responses-wire.js';

/** A string, or the text of a list of content blocks (text blocks only). */
export function textOf(content) {
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

function isObject(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Tool call arguments as sent (an OpenAI JSON string, an Anthropic object), parsed; else `{_raw}`. */
function parseArguments(value) {
  if (isObject(value)) return value;
  try {
    const parsed = JSON.parse(String(value));
    if (isObject(parsed)) return parsed;
  } catch {
    // kept raw below
  }
  return { _raw: String(value) };
}

/**
 * One Anthropic message as the provider-neutral turns it carries: its `tool_result` blocks
 * become tool turns (first, as the API orders them), its text the turn's content, its
 * `tool_use` blocks the turn's tool calls.
 */
function anthropicTurns(m) {
  const role = String(m?.role);
  const blocks = Array.isArray(m?.content) ? m.content : [];
  const results = blocks
    .filter((b) => isObject(b) && b.type === 'tool_result')
    .map((b) => ({ role: 'tool', toolCallId: String(b.tool_use_id), content: textOf(b.content) }));
  const calls = blocks
    .filter((b) => isObject(b) && b.type === 'tool_use')
    .map((b) => ({ id: String(b.id), name: String(b.name), arguments: parseArguments(b.input) }));
  const text = textOf(m?.content);
  const own = results.length === 0 || text !== '' || calls.length > 0;
  return [
    ...results,
    ...(own ? [{ role, content: text, ...(calls.length === 0 ? {} : { toolCalls: calls }) }] : []),
  ];
}

function openaiTurn(m) {
  const role = String(m?.role);
  if (role === 'tool') return { role, toolCallId: String(m.tool_call_id), content: textOf(m.content) };
  const calls = Array.isArray(m?.tool_calls)
    ? m.tool_calls.map((c) => ({
        id: String(c?.id),
        name: String(c?.function?.name),
        arguments: parseArguments(c?.function?.arguments),
      }))
    : [];
  return { role, content: textOf(m?.content), ...(calls.length === 0 ? {} : { toolCalls: calls }) };
}

/** The offered tools as `{name, description?, parameters}`, from either API's list. */
function normaliseTools(api, tools) {
  if (!Array.isArray(tools)) return undefined;
  return tools.map((t) => {
    const fn = api === 'openai' ? (t?.function ?? {}) : (t ?? {});
    return {
      name: String(fn.name),
      ...(fn.description === undefined ? {} : { description: fn.description }),
      parameters: (api === 'openai' ? fn.parameters : fn.input_schema) ?? {},
    };
  });
}

/** The structured output asked for: Anthropic `output_config.format`, OpenAI `response_format`. */
function normaliseOutput(api, body) {
  if (api === 'anthropic') {
    const format = body.output_config?.format;
    return format?.type === 'json_schema' ? { schema: format.schema } : undefined;
  }
  const format = body.response_format;
  if (format?.type !== 'json_schema') return undefined;
  const spec = format.json_schema ?? {};
  return {
    ...(spec.name === undefined ? {} : { name: spec.name }),
    schema: spec.schema,
    ...(spec.strict === undefined ? {} : { strict: spec.strict }),
  };
}

/**
 * Both APIs reduced to one request: model, system, the conversation as provider-neutral turns
 * (`{role, content, toolCalls?}`, tool turns `{role: 'tool', toolCallId, content}`), tools,
 * structured output, temperature, limit.
 */
export function normalise(api, body, headers, path, index) {
  if (api === 'openai-responses') return normaliseResponses(body, headers, path, index);
  const raw = Array.isArray(body.messages) ? body.messages : [];
  const messages = api === 'anthropic' ? raw.flatMap(anthropicTurns) : raw.map(openaiTurn);
  let system = api === 'anthropic' && body.system !== undefined ? textOf(body.system) : undefined;
  if (api === 'openai') {
    const systems = messages.filter((m) => m.role === 'system' || m.role === 'developer');
    if (systems.length > 0) system = systems.map((m) => m.content).join('\n');
  }
  const maxTokens = body.max_tokens ?? body.max_completion_tokens;
  const tools = normaliseTools(api, body.tools);
  const output = normaliseOutput(api, body);
  return {
    api,
    model: String(body.model ?? ''),
    ...(system === undefined ? {} : { system }),
    messages:
      api === 'openai' ? messages.filter((m) => m.role !== 'system' && m.role !== 'developer') : messages,
    ...(tools === undefined ? {} : { tools }),
    ...(output === undefined ? {} : { output }),
    ...(typeof body.temperature === 'number' ? { temperature: body.temperature } : {}),
    ...(typeof maxTokens === 'number' ? { max_tokens: maxTokens } : {}),
    body,
    headers,
    path,
    index,
  };
}

/**
 * What identifies a request's content (for counting repeats across tools): the normalised
 * request, hashed. Tools and output enter only when present, so a plain request's digest is
 * what it always was.
 */
export function requestDigest(request) {
  const shape =
    request.tools === undefined && request.output === undefined
      ? []
      : [request.tools ?? null, request.output ?? null];
  return createHash('sha256')
    .update(
      JSON.stringify([
        request.model,
        request.system ?? '',
        request.messages,
        request.temperature ?? null,
        ...shape,
      ]),
    )
    .digest('hex');
}

export function presentedKey(headers) {
  const xKey = headers['x-api-key'];
  if (typeof xKey === 'string' && xKey !== '') return xKey;
  const auth = headers.authorization;
  if (typeof auth === 'string' && auth.startsWith('Bearer ') && auth.length > 7) return auth.slice(7);
  return undefined;
}

/** Each API's own error body: `{type:'error',error:{type,message}}` or `{error:{message,type,code}}`. */
export function errorBody(api, type, message, code) {
  if (api === 'anthropic') return JSON.stringify({ type: 'error', error: { type, message } });
  return JSON.stringify({ error: { message, type, code, param: null } });
}

const JSON_TYPE = { 'content-type': 'application/json' };

/** status, Anthropic type, OpenAI type, message, OpenAI code */
const STATUS_FAULTS = {
  server_error: [500, 'api_error', 'server_error', 'Internal server error', null],
  unavailable: [503, 'api_error', 'server_error', 'Service unavailable', null],
  overloaded: [529, 'overloaded_error', 'overloaded_error', 'Overloaded', null],
  forbidden: [403, 'permission_error', 'invalid_request_error', 'Permission denied', null],
  bad_request: [400, 'invalid_request_error', 'invalid_request_error', 'Invalid request', null],
  not_found: [404, 'not_found_error', 'invalid_request_error', 'model: not found', 'model_not_found'],
};

/** The answer to an injected fault, or 'hang' / 'truncated' for the two the server acts out. */
export function planFault(api, spec) {
  const a = api === 'anthropic';
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
      return { status: 200, body: '', headers: JSON_TYPE };
    case 'rate_limit': {
      const headers = { ...JSON_TYPE };
      if (spec.retryAfterS !== undefined) headers['retry-after'] = String(spec.retryAfterS);
      if (spec.retryAfterMs !== undefined) headers['retry-after-ms'] = String(spec.retryAfterMs);
      const body = a
        ? errorBody(api, 'rate_limit_error', msg ?? 'Number of requests has exceeded your rate limit', null)
        : errorBody(api, 'requests', msg ?? 'Rate limit reached for requests', 'rate_limit_exceeded');
      return { status: 429, body, headers };
    }
    case 'unauthorized':
      return {
        status: 401,
        headers: JSON_TYPE,
        body: a
          ? errorBody(api, 'authentication_error', msg ?? 'invalid x-api-key', null)
          : errorBody(api, 'invalid_request_error', msg ?? 'Incorrect API key provided', 'invalid_api_key'),
      };
    case 'credit':
      return a
        ? {
            status: 400,
            headers: JSON_TYPE,
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
            headers: JSON_TYPE,
            body: errorBody(
              api,
              'insufficient_quota',
              msg ?? 'You exceeded your current quota, please check your plan and billing details.',
              'insufficient_quota',
            ),
          };
    default: {
      const [status, anthropicType, openaiType, message, code] = STATUS_FAULTS[spec.kind] ?? [
        500,
        'api_error',
        'server_error',
        'error',
        null,
      ];
      return {
        status,
        headers: JSON_TYPE,
        body: errorBody(api, a ? anthropicType : openaiType, msg ?? message, a ? null : code),
      };
    }
  }
}

export function estimateTokens(text) {
  return Math.max(1, Math.ceil(text.length / 4));
}

/** A scripted call's arguments on the wire: an object as JSON, a string verbatim (broken JSON too). */
function argumentsText(args) {
  return typeof args === 'string' ? args : JSON.stringify(args ?? {});
}

/**
 * A reply in the request's API; usage defaults to about four characters a token. With
 * `toolCalls` the reply carries Anthropic `tool_use` blocks or OpenAI `tool_calls` (ids made up
 * when not given) and stops with `tool_use` / `tool_calls` unless told otherwise.
 */
export function successBody(req, reply, cache = undefined) {
  const calls = (reply.toolCalls ?? []).map((c, i) => ({
    ...c,
    id: c.id ?? `${req.api === 'anthropic' ? 'toolu' : 'call'}_fake_${req.index}_${i}`,
  }));
  const text = reply.text ?? (calls.length > 0 ? '' : 'ok');
  const promptChars = (req.system ?? '') + req.messages.map((m) => m.content).join('');
  const input = reply.usage?.input_tokens ?? estimateTokens(promptChars);
  const output =
    reply.usage?.output_tokens ??
    estimateTokens(text + calls.map((c) => argumentsText(c.arguments)).join(''));
  if (req.api === 'openai-responses') return responsesBody(req, text, calls, input, output, cache);
  if (req.api === 'anthropic') {
    return JSON.stringify({
      id: `msg_fake_${req.index}`,
      type: 'message',
      role: 'assistant',
      model: req.model,
      content: [
        ...(text === '' && calls.length > 0 ? [] : [{ type: 'text', text }]),
        ...calls.map((c) => ({
          type: 'tool_use',
          id: c.id,
          name: c.name,
          input: typeof c.arguments === 'string' ? c.arguments : (c.arguments ?? {}),
        })),
      ],
      stop_reason: reply.stopReason ?? (calls.length > 0 ? 'tool_use' : 'end_turn'),
      stop_sequence: null,
      usage: anthropicUsage(input, output, cache),
    });
  }
  const message = {
    role: 'assistant',
    content: text === '' && calls.length > 0 ? null : text,
    ...(calls.length === 0
      ? {}
      : {
          tool_calls: calls.map((c) => ({
            id: c.id,
            type: 'function',
            function: { name: c.name, arguments: argumentsText(c.arguments) },
          })),
        }),
  };
  return JSON.stringify({
    id: `chatcmpl-fake-${req.index}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: req.model,
    choices: [
      { index: 0, message, finish_reason: reply.stopReason ?? (calls.length > 0 ? 'tool_calls' : 'stop') },
    ],
    usage: openaiUsage(input, output, cache),
  });
}

/**
 * Anthropic's usage: `input_tokens` counts what follows the last cache breakpoint; what was
 * written to or read from the prompt cache (fake-prompt-cache.js) is counted apart.
 */
function anthropicUsage(input, output, cache) {
  const write = cache?.cacheWrite ?? 0;
  const read = cache?.cacheRead ?? 0;
  const uncached = write + read > 0 ? Math.max(0, cache.total - write - read) : input;
  return {
    input_tokens: uncached,
    output_tokens: output,
    cache_creation_input_tokens: write,
    cache_read_input_tokens: read,
  };
}

/** OpenAI's usage: `prompt_tokens` includes the cached ones, reported in `prompt_tokens_details`. */
function openaiUsage(input, output, cache) {
  const cached = cache?.cached ?? 0;
  const prompt = cached > 0 ? Math.max(cache.total, cached) : input;
  return {
    prompt_tokens: prompt,
    completion_tokens: output,
    total_tokens: prompt + output,
    prompt_tokens_details: { cached_tokens: cached },
  };
}
