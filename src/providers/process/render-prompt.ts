/**
 * CLI and command providers take one text, not a message list. A single user message (every
 * generator call) goes as is; a longer conversation becomes a plain transcript.
 */
import type { ChatMessage } from '../types.js';

export function renderConversation(messages: readonly ChatMessage[]): string {
  const [only] = messages;
  if (messages.length === 1 && only !== undefined && only.role === 'user') return only.content;
  return messages.map((m) => `${m.role === 'user' ? 'User' : 'Assistant'}:\n${m.content}`).join('\n\n');
}

export function prependSystem(system: string | undefined, text: string): string {
  return system === undefined || system === '' ? text : `${system}\n\n${text}`;
}
