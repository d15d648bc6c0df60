/**
 * The OpenAI Responses API (POST /v1/responses) as the fake LLM server speaks it — the API the
 * Codex CLI calls (`wire_api = "responses"`): the request reduced to the server's provider-neutral
 * `FakeRequest`, and the `response` object a reply becomes. Streaming (`stream: true`, as Codex
 * always asks) is fake-llm-sse.js's, built from this same object.
 * Plain JavaScript (types in fake-llm-wire.d.ts), like the rest of the fake server.
 */

function isObject(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An input item's content: a string, or `input_text` / `output_text` parts joined. */
function partsText(content) {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => (isObject(part) && typeof part.text === 'string' ? part.text : '')).join('');
}

function parsedArguments(text) {
  try {
    const parsed = JSON.parse(String(text));
    if (isObject(parsed)) return parsed;
  } catch {
    // kept raw below
  }
  return { _raw: String(text) };
}

/**
 * `instructions` and the developer/system messages are the system prompt (joined in order);
 * user and assistant messages are turns; a `function_call` joins the assistant turn before it
 * (or starts one) and a `function_call_output` is a tool turn.
 */
function inputTurns(input) {
  const systems = [];
  const turns = [];
  const items =
    typeof input === 'string' ? [{ role: 'user', content: input }] : Array.isArray(input) ? input : [];
  for (const item of items) {
    if (!isObject(item)) continue;
    const type = item.type ?? 'message';
    if (type === 'message' && (item.role === 'developer' || item.role === 'system')) {
      systems.push(partsText(item.content));
    } else if (type === 'message') {
      turns.push({ role: String(item.role), content: partsText(item.content) });
    } else if (type === 'function_call') {
      const call = {
        id: String(item.call_id),
        name: String(item.name),
        arguments: parsedArguments(item.arguments),
      };
      const last = turns.at(-1);
      if (last?.role === 'assistant') last.toolCalls = [...(last.toolCalls ?? []), call];
      else turns.push({ role: 'assistant', content: '', toolCalls: [call] });
    } else if (type === 'function_call_output') {
      turns.push({ role: 'tool', toolCallId: String(item.call_id), content: partsText(item.output) });
    }
  }
  return { systems, turns };
}

/** Function tools as `{name, description?, parameters}`; Codex's other kinds (custom, web search) by name or type. */
function responsesTools(tools) {
  if (!Array.isArray(tools)) return undefined;
  return tools.map((t) => ({
    name: String(t?.name ?? t?.type),
    ...(t?.description === undefined ? {} : { description: t.description }),
    parameters: t?.parameters ?? {},
  }));
}

/** `text.format` of type `json_schema`: `{name, schema, strict}` at the top of the format. */
function responsesOutput(body) {
  const format = body.text?.format;
  if (format?.type !== 'json_schema') return undefined;
  return {
    ...(format.name === undefined ? {} : { name: format.name }),
    schema: format.schema,
    ...(format.strict === undefined ? {} : { strict: format.strict }),
  };
}

export function normaliseResponses(body, headers, path, index) {
  const { systems, turns } = inputTurns(body.input);
  const all = [...(typeof body.instructions === 'string' ? [body.instructions] : []), ...systems];
  const tools = responsesTools(body.tools);
  const output = responsesOutput(body);
  return {
    api: 'openai-responses',
    model: String(body.model ?? ''),
    ...(all.length === 0 ? {} : { system: all.join('\n') }),
    messages: turns,
    ...(tools === undefined ? {} : { tools }),
    ...(output === undefined ? {} : { output }),
    ...(typeof body.temperature === 'number' ? { temperature: body.temperature } : {}),
    ...(typeof body.max_output_tokens === 'number' ? { max_tokens: body.max_output_tokens } : {}),
    body,
    headers,
    path,
    index,
  };
}

/**
 * The completed `response` object: a `message` item with the text (unless the reply only calls
 * tools), one `function_call` item per call, usage with the cached part of the input apart.
 * `calls` carry their ids; `cache` is what fake-prompt-cache.js found (`{ total, cached }`).
 */
export function responsesBody(req, text, calls, input, output, cache) {
  const cached = cache?.cached ?? 0;
  const inputTokens = cached > 0 ? Math.max(cache.total, cached) : input;
  return JSON.stringify({
    id: `resp_fake_${req.index}`,
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    status: 'completed',
    model: req.model,
    output: [
      ...(text === '' && calls.length > 0
        ? []
        : [
            {
              type: 'message',
              id: `msg_fake_${req.index}`,
              status: 'completed',
              role: 'assistant',
              content: [{ type: 'output_text', text, annotations: [] }],
            },
          ]),
      ...calls.map((c, i) => ({
        type: 'function_call',
        id: `fc_fake_${req.index}_${i}`,
        call_id: c.id,
        name: c.name,
        arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments ?? {}),
        status: 'completed',
      })),
    ],
    usage: {
      input_tokens: inputTokens,
      input_tokens_details: { cached_tokens: cached },
      output_tokens: output,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: inputTokens + output,
    },
  });
}
