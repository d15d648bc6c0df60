/**
 * What the `command` provider sends a program when the request is more than one user
 * message (docs/design/prompt-shapes.md), and how it reads a reply that calls tools. The field
 * names follow the experiment format (snake_case); docs/providers.md "The JSON request" is the
 * reference:
 *
 *   {"system": string | null,
 *    "messages": [{"role": "user", "content"},
 *                 {"role": "assistant", "content", "tool_calls": [{"id", "name", "arguments"}]},
 *                 {"role": "tool", "tool_call_id", "content"}],
 *    "output": {"name", "schema"} | null,
 *    "tools": [{"name", "description", "parameters"}] | null}
 *
 * A reply to a request with tools may be `{"text": …, "tool_calls": [{"id"?, "name", "arguments"}]}`;
 * any other stdout is the reply's text, as before.
 */
import { isRecord } from '../../is-record.js';
import { type ChatMessage, type CompletionRequest, ProviderError, type ToolCall } from '../types.js';

/** Plain text (today's stdin) for one user message; the JSON request for anything richer. */
export function needsJsonRequest(request: CompletionRequest): boolean {
  if (request.output !== undefined || (request.tools?.length ?? 0) > 0) return true;
  const toolTurns = request.messages.some(
    (m) => m.role === 'tool' || (m.role === 'assistant' && (m.toolCalls?.length ?? 0) > 0),
  );
  if (toolTurns) return true;
  // The runner's own roles (mutator, judge, grader) and path prompts keep their plain text, a
  // system prompt and correction turns included; a prompt of parts goes as what it is.
  const single = request.messages.length === 1 && request.messages[0]?.role === 'user';
  return request.shaped === true && !(single && (request.system ?? '') === '');
}

function wireMessage(message: ChatMessage): Record<string, unknown> {
  if (message.role === 'tool')
    return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
  if (message.role === 'user' || message.toolCalls === undefined || message.toolCalls.length === 0)
    return { role: message.role, content: message.content };
  return {
    role: 'assistant',
    content: message.content,
    tool_calls: message.toolCalls.map(({ id, name, arguments: args }) => ({ id, name, arguments: args })),
  };
}

/** The JSON request, one line, every key present (null when the request has none). */
export function buildCommandRequest(request: CompletionRequest, system: string | undefined): string {
  return JSON.stringify({
    system: system === undefined || system === '' ? null : system,
    messages: request.messages.map(wireMessage),
    output:
      request.output === undefined ? null : { name: request.output.name, schema: request.output.schema },
    tools:
      request.tools === undefined || request.tools.length === 0
        ? null
        : request.tools.map((tool) => ({
            name: tool.name,
            ...(tool.description === undefined ? {} : { description: tool.description }),
            parameters: tool.parameters,
          })),
  });
}

const REPLY_KEYS = new Set(['text', 'tool_calls']);

function parseCall(value: unknown, index: number, label: string): ToolCall {
  const bad = (what: string) =>
    new ProviderError('malformed', `${label}: reply tool_calls[${index}] ${what}`);
  if (!isRecord(value)) throw bad('is not an object');
  const { id, name, arguments: args } = value;
  if (typeof name !== 'string' || name === '') throw bad('needs a "name" string');
  if (!isRecord(args)) throw bad('needs an "arguments" object');
  if (id !== undefined && typeof id !== 'string') throw bad('has an "id" that is not a string');
  return { id: id ?? `call_${index + 1}`, name, arguments: args };
}

/**
 * The reply to a request that offered tools: a JSON object with only `text` and/or
 * `tool_calls` is read as such (a bad one fails the call as malformed); anything else is text.
 */
export function parseCommandReply(stdout: string, label: string): { text: string; toolCalls?: ToolCall[] } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(stdout);
  } catch {
    return { text: stdout };
  }
  if (!isRecord(parsed) || Object.keys(parsed).length === 0) return { text: stdout };
  if (!Object.keys(parsed).every((key) => REPLY_KEYS.has(key))) return { text: stdout };
  const { text, tool_calls: calls } = parsed;
  if (text !== undefined && typeof text !== 'string')
    throw new ProviderError('malformed', `${label}: reply "text" must be a string`);
  if (calls !== undefined && !Array.isArray(calls))
    throw new ProviderError('malformed', `${label}: reply "tool_calls" must be a list`);
  const toolCalls = (calls ?? []).map((call, i) => parseCall(call, i, label));
  return { text: text ?? '', ...(toolCalls.length === 0 ? {} : { toolCalls }) };
}
