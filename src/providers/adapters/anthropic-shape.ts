/**
 * A request's conversation, tools and structured output in the Anthropic Messages format
 * (docs/design/prompt-shapes.md), and the tool calls read back from a response. A plain
 * conversation (no tool calls, no tool turns) maps to `{role, content: string}` turns exactly as
 * before docs/design/prompt-shapes.md, so a path `prompt:` sends the same bytes it always did.
 *
 * - An assistant turn with tool calls: a text block (when it has text) and one `tool_use`
 *   block per call, `input` the parsed arguments.
 * - Tool turns become user turns of `tool_result` blocks. The API wants every result of an
 *   assistant turn's calls in the one user turn that follows it, results first and any text
 *   after them, so consecutive tool turns and a user turn right after them are merged.
 * - Prompt caching (docs/design/cost-engine.md): a request's stable prefix (`cacheable`) is marked with
 *   `cache_control`: the system prompt as one text block, and the first message's lead as a
 *   text block of its own. The API caches a marked prefix only above the model's minimum
 *   length; below it, the mark costs nothing.
 */
import type { ChatMessage, StructuredOutput, ToolCall, ToolDefinition } from '../types.js';
import { isRecord } from './defaults.js';

type Block = Record<string, unknown>;
interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: string | Block[];
}

function assistantContent(text: string, calls: ToolCall[]): Block[] {
  return [
    // The API refuses an empty text block.
    ...(text === '' ? [] : [{ type: 'text', text }]),
    ...calls.map((call) => ({ type: 'tool_use', id: call.id, name: call.name, input: call.arguments })),
  ];
}

export function toAnthropicMessages(messages: readonly ChatMessage[]): AnthropicMessage[] {
  const out: AnthropicMessage[] = [];
  // The user turn tool results are being gathered into, while the next message may still join it.
  let results: Block[] | undefined;
  for (const message of messages) {
    if (message.role === 'tool') {
      const block = { type: 'tool_result', tool_use_id: message.toolCallId, content: message.content };
      if (results === undefined) {
        results = [block];
        out.push({ role: 'user', content: results });
      } else results.push(block);
      continue;
    }
    if (message.role === 'user' && results !== undefined) {
      results.push({ type: 'text', text: message.content });
      results = undefined;
      continue;
    }
    results = undefined;
    const calls = message.role === 'assistant' ? (message.toolCalls ?? []) : [];
    out.push({
      role: message.role,
      content: calls.length === 0 ? message.content : assistantContent(message.content, calls),
    });
  }
  return out;
}

export function toAnthropicTools(tools: readonly ToolDefinition[]): Block[] {
  return tools.map((tool) => ({
    name: tool.name,
    ...(tool.description === undefined ? {} : { description: tool.description }),
    input_schema: tool.parameters,
  }));
}

/**
 * `output_config` with `format` as the pinned SDK types it (`JSONOutputFormat`: the schema, no
 * name), keeping what the entry's params put there (`effort`).
 */
export function anthropicOutputConfig(output: StructuredOutput, fromParams: unknown): Block {
  return {
    ...(isRecord(fromParams) ? fromParams : {}),
    format: { type: 'json_schema', schema: output.schema },
  };
}

/** The `tool_use` blocks of a response's content, in order (server tools and others are not ours). */
export function readAnthropicToolCalls(content: readonly unknown[]): ToolCall[] {
  return content
    .filter((block): block is Block => isRecord(block) && block['type'] === 'tool_use')
    .map((block) => {
      const input = block['input'];
      return {
        id: String(block['id'] ?? ''),
        name: String(block['name'] ?? ''),
        // The API always sends an object; a compatible server that does not is kept, not lost.
        arguments: isRecord(input) ? input : { _raw: JSON.stringify(input ?? null) },
      };
    });
}

const EPHEMERAL = { type: 'ephemeral' } as const;

/** The system prompt as one text block marked cacheable. */
export function cacheableSystem(system: string): Block[] {
  return [{ type: 'text', text: system, cache_control: EPHEMERAL }];
}

/**
 * The first message with its first `lead` characters in a text block marked cacheable and the
 * rest in another; a message whose content is already blocks (tool turns) is left as it is.
 */
export function markCacheableLead(messages: AnthropicMessage[], lead: number): AnthropicMessage[] {
  const [first, ...rest] = messages;
  if (first === undefined || typeof first.content !== 'string' || lead <= 0 || first.content === '')
    return messages;
  const head = first.content.slice(0, lead);
  const tail = first.content.slice(lead);
  const content: Block[] = [
    { type: 'text', text: head, cache_control: EPHEMERAL },
    // The API refuses an empty text block.
    ...(tail === '' ? [] : [{ type: 'text', text: tail }]),
  ];
  return [{ role: first.role, content }, ...rest];
}
