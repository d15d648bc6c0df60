/**
 * The append-only journal `events.jsonl`: one event per line, each append flushed to disk
 * before it returns, because a step counts as done only once its events are durable. A crash
 * mid-write leaves at most one partial last line ("torn tail"): readers ignore and report it,
 * and the next append cuts it off so it can never end up in the middle of the file.
 */
import { open, readFile, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { AutoresearchError } from '../errors.js';
import { notePath } from '../no-space.js';
import { RunEvent } from './events.js';
import { isErrno, pathExists } from './errno.js';
import { runPaths } from './paths.js';
import { RECORD_VERSION } from './record-version.js';

export interface InvalidLine {
  /** 1-based line number in events.jsonl. */
  line: number;
  message: string;
}

export interface JournalRead {
  events: RunEvent[];
  /** True when the file ended in a partial line (a write cut short); it was ignored. */
  tornTail: boolean;
  /** Complete lines that are not valid events (only collected with `onInvalid: 'collect'`). */
  invalidLines: InvalidLine[];
}

export interface ReadJournalOptions {
  /** `throw` (default): an invalid complete line is an E_RUN_RECORD error naming it; `collect`: list it and go on. */
  onInvalid?: 'throw' | 'collect';
}

// Appends to one journal from this process run one after another, so one never sees another's half-written line.
const pending = new Map<string, Promise<void>>();

export interface AppendOptions {
  /**
   * fsync before returning (default true): the events then survive a power failure. Progress
   * markers that record no finished work (phase changes) pass false; the next durable append
   * syncs the whole file, them included.
   */
  durable?: boolean;
}

export async function appendEvents(
  runDir: string,
  events: readonly RunEvent[],
  options: AppendOptions = {},
): Promise<void> {
  if (events.length === 0) return;
  const durable = options.durable ?? true;
  // Validate everything before touching the file: a bad event is a bug and must not half-land.
  const text = events.map((event) => `${JSON.stringify(validEvent(event))}\n`).join('');
  const file = runPaths(runDir).events;
  const previous = pending.get(file) ?? Promise.resolve();
  const current = previous.then(() =>
    appendText(file, text, durable).catch((error: unknown) => {
      throw notePath(error, file);
    }),
  );
  const settled = current.catch(() => {});
  pending.set(file, settled);
  try {
    await current;
  } finally {
    if (pending.get(file) === settled) pending.delete(file);
  }
}

function validEvent(event: RunEvent): RunEvent {
  const checked = checkEvent(event);
  if (!checked.ok) throw new Error(`refusing to journal an invalid ${event.type} event: ${checked.message}`);
  return checked.event;
}

type EventCheck = { ok: true; event: RunEvent } | { ok: false; message: string };

/** One value against the event schemas, with the first problem and where it sits. */
export function checkEvent(value: unknown): EventCheck {
  const result = RunEvent.safeParse(value);
  if (result.success) return { ok: true, event: result.data };
  const issue = result.error.issues[0];
  const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  return { ok: false, message: `${where}${issue?.message ?? 'not an event'}` };
}

async function appendText(file: string, text: string, durable: boolean): Promise<void> {
  const existed = await pathExists(file);
  const handle = await open(file, 'a+');
  try {
    await dropTornTail(handle);
    const bytes = Buffer.from(text, 'utf8');
    let written = 0;
    while (written < bytes.length) {
      const { bytesWritten } = await handle.write(bytes, written, bytes.length - written);
      written += bytesWritten;
    }
    if (durable) await handle.sync();
  } finally {
    await handle.close();
  }
  if (!existed) await syncDirectory(dirname(file));
}

export async function readJournal(runDir: string, options: ReadJournalOptions = {}): Promise<JournalRead> {
  const file = runPaths(runDir).events;
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if (isErrno(error, 'ENOENT')) return { events: [], tornTail: false, invalidLines: [] };
    throw error;
  }
  const read = parseJournal(text);
  const first = read.invalidLines[0];
  if (first && options.onInvalid !== 'collect') {
    throw new AutoresearchError(
      'E_RUN_RECORD',
      `${file} line ${first.line} is not a valid event: ${first.message}`,
      {
        hint: 'the journal is only ever appended to, so it was edited or damaged; restore that line from a backup',
      },
    );
  }
  return read;
}

/** Pure: split the journal text into events, a torn tail and invalid lines. */
export function parseJournal(text: string): JournalRead {
  const lines = text.split('\n');
  // After the split, the last element is '' when the file ends with a newline; anything else was cut short.
  const tail = lines.pop() ?? '';
  const events: RunEvent[] = [];
  const invalidLines: InvalidLine[] = [];
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    const parsed = parseLine(line);
    if (parsed.ok) events.push(parsed.event);
    else invalidLines.push({ line: index + 1, message: parsed.message });
  });
  return { events, tornTail: tail !== '', invalidLines };
}

function parseLine(line: string): EventCheck {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { ok: false, message: 'not JSON' };
  }
  const version = typeof value === 'object' && value !== null ? (value as { v?: unknown }).v : undefined;
  if (typeof version === 'number' && version > RECORD_VERSION) {
    return { ok: false, message: `written by a newer autoresearch (event version ${version})` };
  }
  return checkEvent(value);
}

async function dropTornTail(handle: FileHandle): Promise<void> {
  const { size } = await handle.stat();
  if (size === 0) return;
  const last = Buffer.alloc(1);
  await handle.read(last, 0, 1, size - 1);
  if (last[0] === 0x0a) return;
  const keep = await findLastNewline(handle, size);
  await handle.truncate(keep);
  await handle.sync();
}

/** The length of the file up to and including its last newline (0 when there is none). */
async function findLastNewline(handle: FileHandle, size: number): Promise<number> {
  const chunkSize = 64 * 1024;
  const chunk = Buffer.alloc(chunkSize);
  let end = size;
  while (end > 0) {
    const start = Math.max(0, end - chunkSize);
    const { bytesRead } = await handle.read(chunk, 0, end - start, start);
    const index = chunk.subarray(0, bytesRead).lastIndexOf(0x0a);
    if (index >= 0) return start + index + 1;
    end = start;
  }
  return 0;
}

// Makes the new file's name durable; some file systems refuse fsync on a folder, which only costs durability.
async function syncDirectory(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {}
}
