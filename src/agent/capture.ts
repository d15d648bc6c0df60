/**
 * What an agent did to its workspace (docs/design/agent-runs.md "One case"): the workspace now
 * against its starting snapshot. Created and changed files are the case's outputs, deleted ones
 * are listed; links count by where they point and are never followed. A file above
 * CAPTURE_FILE_LIMIT bytes, or past CAPTURE_COUNT_LIMIT files, is listed but its content not kept.
 */
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import type { FolderSnapshot, SnapshotEntry } from './folder-snapshot.js';
import { snapshotFolder } from './folder-snapshot.js';

export const CAPTURE_FILE_LIMIT = 1024 * 1024;
export const CAPTURE_COUNT_LIMIT = 200;

export interface CapturedFile {
  path: string;
  status: 'created' | 'changed' | 'deleted';
  kind: SnapshotEntry['kind'];
  size?: number;
  /** A link's target. */
  target?: string;
  /** The content as UTF-8 text, for a regular file that was kept; absent otherwise. */
  text?: string;
  /** Why the content was not kept (too large, too many files, not text, not a regular file). */
  skipped?: string;
}

export interface Capture {
  files: CapturedFile[];
  /** The workspace held more entries than were compared. */
  truncated: boolean;
}

const READ_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

export async function captureWorkspace(dir: string, start: FolderSnapshot): Promise<Capture> {
  const now = await snapshotFolder(dir);
  const files: CapturedFile[] = [];
  let kept = 0;
  for (const [path, entry] of now.entries) {
    const before = start.entries.get(path);
    if (before !== undefined && sameEntry(before, entry)) continue;
    const file: CapturedFile = {
      path,
      status: before === undefined ? 'created' : 'changed',
      kind: entry.kind,
    };
    if (entry.kind === 'link') file.target = entry.target;
    if (entry.kind === 'file') {
      file.size = entry.size;
      if (entry.size > CAPTURE_FILE_LIMIT) file.skipped = `larger than ${CAPTURE_FILE_LIMIT} bytes`;
      else if (kept >= CAPTURE_COUNT_LIMIT) file.skipped = `past the first ${CAPTURE_COUNT_LIMIT} files`;
      else {
        const text = await readText(join(dir, path), entry.size);
        if (text === undefined) file.skipped = 'not UTF-8 text';
        else {
          file.text = text;
          kept++;
        }
      }
    } else if (entry.kind === 'other') file.skipped = 'not a regular file';
    files.push(file);
  }
  for (const [path, entry] of start.entries)
    if (!now.entries.has(path) && !now.truncated) files.push({ path, status: 'deleted', kind: entry.kind });
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { files, truncated: now.truncated };
}

function sameEntry(a: SnapshotEntry, b: SnapshotEntry): boolean {
  if (a.kind === 'file' && b.kind === 'file') return a.sha256 === b.sha256;
  if (a.kind === 'link' && b.kind === 'link') return a.target === b.target;
  return a.kind === b.kind;
}

/** At most `size` bytes (what the snapshot saw), without following links; undefined when not text. */
async function readText(path: string, size: number): Promise<string | undefined> {
  const handle = await open(path, READ_FLAGS).catch(() => undefined);
  if (handle === undefined) return undefined;
  try {
    const buffer = Buffer.alloc(Math.min(size, CAPTURE_FILE_LIMIT));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const bytes = buffer.subarray(0, bytesRead);
    if (bytes.includes(0)) return undefined;
    const text = new TextDecoder('utf-8', { fatal: true });
    try {
      return text.decode(bytes);
    } catch {
      return undefined;
    }
  } finally {
    await handle.close();
  }
}
