/**
 * Every prompt a promptfoo config declares, flattened into a numbered list the user picks
 * from with --prompt-index: inline strings, `file://` files (a .txt file may hold several
 * prompts separated by `---` lines), chat-format JSON/YAML, `{ raw | id, label }` objects and
 * the `{ path: label }` map form. A prompt that cannot be imported stays in the list with the
 * reason, so the numbering matches what promptfoo shows.
 */
import { basename } from 'node:path';
import { AutoresearchError } from '../../errors.js';
import { parseFileRef, isFileRef, looksLikeExistingFile } from './file-ref.js';
import { type ChatPrompt, type DroppedPart, isChatMessages, readChatPrompt } from './chat-prompt.js';
import { parseDataText, readTextFile } from './read-files.js';

export interface PromptChoice {
  /** How the prompt is shown in listings. */
  label: string;
  /** Where it came from, e.g. `prompts[1]` or `prompts[0], prompts.txt part 2`. */
  source: string;
  /** The text of a plain prompt; for a chat prompt, its last user message. */
  text?: string;
  /** A chat-format prompt's system part and template turns (its `dropped` are in `dropped`). */
  chat?: Omit<ChatPrompt, 'dropped'>;
  /** Why it cannot be imported. */
  problem?: string;
  /** Parts of this prompt that could not be carried over. */
  dropped: DroppedPart[];
}

const TEXT_SEPARATOR = /^---[ \t]*$/m;
const SCRIPT_EXTS = new Set(['.js', '.mjs', '.cjs', '.ts', '.py', '.rb']);
const DATA_EXTS = new Set(['.json', '.yaml', '.yml', '.jsonl']);

interface Context {
  configDir: string;
  displayRoot: string;
}

function firstLine(text: string): string {
  const line = text.split('\n').find((l) => l.trim() !== '') ?? '';
  return line.length > 60 ? `${line.slice(0, 59)}…` : line.trim();
}

function inline(text: string, source: string, label?: string): PromptChoice {
  return { label: label ?? firstLine(text), source, text, dropped: [] };
}

/** promptfoo also reads an inline prompt that is a JSON list of chat messages as a chat prompt. */
function inlineOrChat(text: string, source: string, label?: string): PromptChoice {
  if (!text.trimStart().startsWith('[')) return inline(text, source, label);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return inline(text, source, label);
  }
  if (!isChatMessages(data)) return inline(text, source, label);
  const chat = readChatPrompt(data);
  if ('problem' in chat) return { label: label ?? 'chat prompt', source, problem: chat.problem, dropped: [] };
  return fromChat(chat, source, label ?? firstLine(lastUser(chat)));
}

function lastUser(chat: ChatPrompt): string {
  return chat.messages.findLast((m) => m.role === 'user')?.content ?? '';
}

function fromChat(chat: ChatPrompt, source: string, label: string): PromptChoice {
  const { dropped, ...parts } = chat;
  return { label, source, text: lastUser(chat), chat: parts, dropped };
}

async function fromFile(
  reference: string,
  source: string,
  label: string | undefined,
  ctx: Context,
): Promise<PromptChoice[]> {
  const ref = parseFileRef(reference, ctx.configDir);
  const shown = label ?? ref.path;
  const unusable = (problem: string): PromptChoice[] => [{ label: shown, source, problem, dropped: [] }];
  if (ref.glob) return unusable('a glob of prompt files; list the files one by one to import one of them');
  if (SCRIPT_EXTS.has(ref.ext))
    return unusable(
      'a prompt function (a script that builds the prompt); autoresearch optimises a fixed text',
    );
  let text: string;
  let data: unknown;
  // A broken prompt file matters only if it is the one chosen, so it becomes a listed problem.
  try {
    text = await readTextFile(ref.absolute, 'the prompt file', ctx.displayRoot);
    if (DATA_EXTS.has(ref.ext)) data = parseDataText(text, ref.ext, ref.path);
  } catch (error) {
    if (error instanceof AutoresearchError) return unusable(error.message);
    throw error;
  }
  if (DATA_EXTS.has(ref.ext)) {
    if (typeof data === 'string') return [inline(data, `${source}, ${ref.path}`, shown)];
    if (!isChatMessages(data))
      return unusable('a data file that is not a chat-format list of {role, content} messages');
    const chat = readChatPrompt(data);
    if ('problem' in chat) return unusable(chat.problem);
    return [fromChat(chat, `${source}, ${ref.path}`, shown)];
  }
  const parts =
    ref.ext === '.txt'
      ? text
          .split(TEXT_SEPARATOR)
          .map((p) => p.trim())
          .filter((p) => p !== '')
      : [text];
  if (parts.length <= 1) return [inline(parts[0] ?? text, `${source}, ${ref.path}`, shown)];
  return parts.map((part, i) =>
    inline(part, `${source}, ${basename(ref.path)} part ${i + 1}`, `${label ?? ref.path} #${i + 1}`),
  );
}

async function fromItem(
  item: unknown,
  source: string,
  ctx: Context,
  label?: string,
): Promise<PromptChoice[]> {
  if (typeof item === 'string') {
    if (isFileRef(item) || looksLikeExistingFile(item, ctx.configDir))
      return fromFile(item, source, label, ctx);
    return [inlineOrChat(item, source, label)];
  }
  if (typeof item === 'object' && item !== null && !Array.isArray(item)) {
    const entry = item as Record<string, unknown>;
    const shown = [entry['label'], entry['id']].find(
      (v): v is string => typeof v === 'string' && !isFileRef(v),
    );
    const extra = Object.keys(entry).filter((key) => !['raw', 'id', 'label'].includes(key));
    const dropped = extra.map((key) => ({
      subject: `\`${key}\` on the prompt entry`,
      why: 'no equivalent: the prompt is plain text',
    }));
    let choices: PromptChoice[];
    if (typeof entry['raw'] === 'string') choices = [inlineOrChat(entry['raw'], source, shown)];
    else if (typeof entry['id'] === 'string') choices = await fromFile(entry['id'], source, shown, ctx);
    else
      choices = [
        {
          label: shown ?? '(no text)',
          source,
          problem: 'a prompt entry with neither `raw` text nor a file `id`',
          dropped: [],
        },
      ];
    return choices.map((c) => ({ ...c, dropped: [...dropped, ...c.dropped] }));
  }
  return [{ label: '(not a prompt)', source, problem: 'neither a string nor a prompt entry', dropped: [] }];
}

export async function loadPrompts(
  raw: unknown,
  configDir: string,
  displayRoot: string,
): Promise<PromptChoice[]> {
  const ctx = { configDir, displayRoot };
  if (typeof raw === 'string') return fromItem(raw, 'prompts', ctx);
  if (Array.isArray(raw)) {
    const lists = await Promise.all(raw.map((item, i) => fromItem(item, `prompts[${i}]`, ctx)));
    return lists.flat();
  }
  if (typeof raw === 'object' && raw !== null) {
    // The map form: { "file://path": "label" }.
    const lists = await Promise.all(
      Object.entries(raw).map(([path, label], i) =>
        fromItem(path, `prompts[${i}]`, ctx, typeof label === 'string' ? label : undefined),
      ),
    );
    return lists.flat();
  }
  return [];
}
