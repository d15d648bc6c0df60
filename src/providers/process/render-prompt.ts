/**
 * CLI and command providers take one text, not a message list. A single user message (every
 * generator call of a path prompt) goes as is; a longer conversation becomes a plain
 * transcript (docs/providers.md "Conversations as one prompt"):
 *
 *   User:                      Assistant:                          Tool result (call_1):
 *   <content>                  <content>                           <content>
 *                              Tool call call_1: lookup {"id":7}
 *
 * turns separated by a blank line, a tool call's arguments as one line of JSON.
 */
import { ProviderError, type ChatMessage, type CompletionRequest } from '../types.js';

/** One turn of the transcript below (also how the judge's and grader's inputs files show one). */
export function renderTurn(message: ChatMessage): string {
  if (message.role === 'user') return `User:\n${message.content}`;
  if (message.role === 'tool') return `Tool result (${message.toolCallId}):\n${message.content}`;
  const calls = (message.toolCalls ?? []).map(
    (call) => `Tool call ${call.id}: ${call.name} ${JSON.stringify(call.arguments)}`,
  );
  return [
    'Assistant:',
    ...(message.content === '' && calls.length > 0 ? [] : [message.content]),
    ...calls,
  ].join('\n');
}

export function renderConversation(messages: readonly ChatMessage[]): string {
  const [only] = messages;
  if (messages.length === 1 && only !== undefined && only.role === 'user') return only.content;
  return messages.map(renderTurn).join('\n\n');
}

export function prependSystem(system: string | undefined, text: string): string {
  return system === undefined || system === '' ? text : `${system}\n\n${text}`;
}

/**
 * The coding-agent CLIs cannot offer the caller's tools to the model (their own tools are
 * off); `validate` refuses `tools:` with them, and the adapters refuse it again here.
 */
export function refuseTools(request: CompletionRequest, label: string): void {
  if (request.tools === undefined || request.tools.length === 0) return;
  throw new ProviderError(
    'bad_request',
    `${label} cannot offer tools to the model: use provider anthropic, openai, command or sim for an experiment with \`tools:\``,
  );
}
