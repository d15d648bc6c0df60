/**
 * promptfoo's chat-format prompts (a JSON or YAML list of `{role, content}` messages) read as
 * the parts of a prompt shape (docs/design/prompt-shapes.md): the system messages join into the
 * system part, the user and assistant turns up to the last user message become template messages.
 * What a template message cannot carry (tool turns, an assistant turn after the last user message,
 * non-text content) is reported, never dropped silently.
 */

/** Part of a prompt that could not be carried over. */
export interface DroppedPart {
  subject: string;
  why: string;
}

export interface ChatTurn {
  role: 'user' | 'assistant';
  content: string;
}

export interface ChatPrompt {
  system?: string;
  /** Ends with a user turn. */
  messages: ChatTurn[];
  dropped: DroppedPart[];
}

const TEMPLATE_TURNS =
  "a prompt template holds a system prompt and user or assistant turns; tool calls and their results belong in a case's `messages:`";

interface Message {
  role: string;
  content: unknown;
}

function isMessage(value: unknown): value is Message {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Message).role === 'string' &&
    'content' in value
  );
}

export function isChatMessages(data: unknown): data is Message[] {
  return Array.isArray(data) && data.length > 0 && data.every(isMessage);
}

/** Text of a message's content: a string, or the text parts of a list of parts. */
function contentText(content: unknown, dropped: DroppedPart[], role: string): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) {
    dropped.push({
      subject: `a ${role} message whose content is neither text nor a list of parts`,
      why: 'autoresearch prompts are text only',
    });
    return '';
  }
  const texts: string[] = [];
  for (const part of content) {
    if (typeof part === 'string') texts.push(part);
    else if (
      typeof part === 'object' &&
      part !== null &&
      typeof (part as { text?: unknown }).text === 'string'
    ) {
      texts.push((part as { text: string }).text);
    } else {
      const type = (part as { type?: unknown })?.type;
      dropped.push({
        subject: `a \`${typeof type === 'string' ? type : 'non-text'}\` part of a ${role} message`,
        why: 'autoresearch prompts are text only',
      });
    }
  }
  return texts.join('\n');
}

export function readChatPrompt(messages: Message[]): ChatPrompt | { problem: string } {
  const dropped: DroppedPart[] = [];
  const lastUser = messages.map((m) => m.role).lastIndexOf('user');
  if (lastUser < 0) return { problem: 'the chat prompt has no user message' };
  const systems: string[] = [];
  const turns: ChatTurn[] = [];
  messages.forEach((message, index) => {
    const { role } = message;
    const where = `the ${role} message #${index + 1}`;
    if (role === 'system' || role === 'developer') systems.push(contentText(message.content, dropped, role));
    else if (index > lastUser)
      dropped.push({
        subject: `${where}, after the last user message`,
        why: 'the request must end with a user turn',
      });
    else if ((role === 'user' || role === 'assistant') && !('tool_calls' in message))
      turns.push({ role, content: contentText(message.content, dropped, role) });
    else
      dropped.push({
        subject: `${where}${role === 'assistant' ? ' with tool calls' : ''}`,
        why: TEMPLATE_TURNS,
      });
  });
  const system = systems.filter((s) => s.trim() !== '').join('\n\n');
  return { ...(system === '' ? {} : { system }), messages: turns, dropped };
}
