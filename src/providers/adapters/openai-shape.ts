/**
 * A request's conversation, tools and structured output in the Chat Completions format
 * (docs/design/prompt-shapes.md), and the tool calls read back from a response. A plain
 * conversation maps to `{role, content}` messages exactly as before docs/design/prompt-shapes.md,
 * so a path `prompt:` sends the same bytes it always did.
 *
 * Decisions:
 * - Reasoning models (o1, o3, o4…, gpt-5…: the names that also take `max_completion_tokens`)
 *   get the system prompt as a `developer` message, the role OpenAI gives them for it; every
 *   other model, and so every local or compatible server, a `system` message.
 * - `response_format` is `strict` exactly when the schema is in OpenAI's strict subset (every
 *   object closes `additionalProperties` and requires all its properties). Strict mode
 *   refuses any other schema with a 400, which would fail every generation of a run for a
 *   schema the model can still follow; the implicit `is-json` gate checks the outputs then.
 * - Tool call arguments that are not a JSON object (cut off at the token limit, or a model's
 *   broken JSON) are kept as `{_raw: <the string>}`: it is the model's answer, for the checks
 *   and the judge to score, not a transport failure to retry.
 */
import { normaliseModelName } from '../prices.js';
import type { ChatMessage, StructuredOutput, ToolCall, ToolDefinition } from '../types.js';
import { isRecord } from './defaults.js';

type Json = Record<string, unknown>;

export function isReasoningModel(model: string): boolean {
  return /^(o\d|gpt-5)/.test(normaliseModelName(model));
}

function toOpenAiMessage(message: ChatMessage): Json {
  if (message.role === 'tool') {
    return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
  }
  const calls = message.role === 'assistant' ? (message.toolCalls ?? []) : [];
  if (calls.length === 0) return { role: message.role, content: message.content };
  return {
    role: 'assistant',
    // What the API itself answers for a turn that only calls tools.
    content: message.content === '' ? null : message.content,
    tool_calls: calls.map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: JSON.stringify(call.arguments) },
    })),
  };
}

export function toOpenAiMessages(
  model: string,
  system: string | undefined,
  messages: readonly ChatMessage[],
): Json[] {
  const systemRole = isReasoningModel(model) ? 'developer' : 'system';
  return [
    ...(system === undefined || system === '' ? [] : [{ role: systemRole, content: system }]),
    ...messages.map(toOpenAiMessage),
  ];
}

export function toOpenAiTools(tools: readonly ToolDefinition[]): Json[] {
  return tools.map((tool) => ({
    type: 'function',
    function: {
      name: tool.name,
      ...(tool.description === undefined ? {} : { description: tool.description }),
      parameters: tool.parameters,
    },
  }));
}

/** Whether every object schema in `node` closes its properties and requires all of them. */
function inStrictSubset(node: unknown): boolean {
  if (Array.isArray(node)) return node.every(inStrictSubset);
  if (!isRecord(node)) return true;
  const properties = node['properties'];
  if (node['type'] === 'object' || isRecord(properties)) {
    const required = Array.isArray(node['required']) ? node['required'] : [];
    const names = isRecord(properties) ? Object.keys(properties) : [];
    if (node['additionalProperties'] !== false || !names.every((name) => required.includes(name))) {
      return false;
    }
  }
  return Object.values(node).every(inStrictSubset);
}

/** OpenAI names a schema with at most 64 of [a-zA-Z0-9_-]; a file's base name may hold others. */
function schemaName(name: string): string {
  return name.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64) || 'output';
}

export function openAiResponseFormat(output: StructuredOutput): Json {
  return {
    type: 'json_schema',
    json_schema: {
      name: schemaName(output.name),
      schema: output.schema,
      strict: inStrictSubset(output.schema),
    },
  };
}

function parseArguments(text: unknown): Json {
  if (isRecord(text)) return text;
  const raw = typeof text === 'string' ? text : JSON.stringify(text ?? null);
  // Some compatible servers send nothing for a call without arguments.
  if (raw.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    if (isRecord(parsed)) return parsed;
  } catch {
    // Kept as the model wrote it, below.
  }
  return { _raw: raw };
}

/** `message.tool_calls` of a response, function calls only, arguments parsed. */
export function readOpenAiToolCalls(message: Json): ToolCall[] {
  const calls = message['tool_calls'];
  if (!Array.isArray(calls)) return [];
  return calls
    .filter((call): call is Json => isRecord(call) && isRecord(call['function']))
    .map((call) => {
      const fn = call['function'] as Json;
      return {
        id: String(call['id'] ?? ''),
        name: String(fn['name'] ?? ''),
        arguments: parseArguments(fn['arguments']),
      };
    });
}
