/**
 * promptfoo's chat-format prompts (a JSON or YAML list of `{role, content}` messages). The
 * loop optimises one user message, so the last user message becomes the prompt, the system
 * message becomes the generator's fixed system prompt, and earlier turns are reported.
 */

/** Part of a prompt that could not be carried over. */
export interface DroppedPart {
  subject: string;
  why: string;
}

export interface ChatPrompt {
  user: string;
  system?: string;
  dropped: DroppedPart[];
}

const ONE_MESSAGE =
  "autoresearch sends the prompt as one user message (plus the generator's fixed system prompt)";

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
      why: ONE_MESSAGE,
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
  messages.forEach((message, index) => {
    if (message.role === 'system') systems.push(contentText(message.content, dropped, 'system'));
    else if (index !== lastUser) {
      dropped.push({
        subject: `the ${message.role} message #${index + 1}, an earlier turn of the conversation`,
        why: ONE_MESSAGE,
      });
    }
  });
  const user = contentText((messages[lastUser] as Message).content, dropped, 'user');
  const system = systems.filter((s) => s.trim() !== '').join('\n\n');
  return { user, ...(system === '' ? {} : { system }), dropped };
}
