/**
 * The one reader for a file the runner reads back from a folder a sandboxed program controlled
 * (docs/design/isolation.md, "Reading back"). The program could leave a link there to a host
 * file it cannot see itself (under `os` isolation) but the runner can, a FIFO that would hold the
 * read forever, a device (`/dev/zero` never ends), or a file of gigabytes: only a regular file
 * reached without leaving the folder, at most RESULT_FILE_CAP_BYTES long, counts. Whatever else
 * it found is said by what it is, never by what it holds: the reason reaches the run's journal
 * and the terminal, so not one byte of the file is quoted.
 */
import { constants, type Stats } from 'node:fs';
import { lstat, open, realpath } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { isInside } from './sandbox-mounts.js';

/** A result file's cap: a judge's scores with reasoning for hundreds of outputs fit many times over. */
export const RESULT_FILE_CAP_BYTES = 4 * 1024 * 1024;

// Not following the last link, not waiting on a FIFO, never taking a terminal as ours.
const FLAGS =
  constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

export type ResultFileRead =
  | { kind: 'text'; text: string }
  | { kind: 'missing' }
  /** `why` names what was found instead ("is a FIFO"), to follow the file's name. */
  | { kind: 'refused'; why: string };

function kindOf(stats: Stats): string {
  if (stats.isSymbolicLink()) return 'a symbolic link';
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isSocket()) return 'a socket';
  if (stats.isDirectory()) return 'a folder';
  return 'not a regular file';
}

function refused(why: string): ResultFileRead {
  return { kind: 'refused', why };
}

function tooLarge(bytes: number, cap: number): ResultFileRead {
  return refused(`is too large: ${bytes} bytes, ${bytes - cap} over the cap of ${cap}`);
}

function errnoOf(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

/** `dir/file`'s text, or why there is none that may be read; `cap` in bytes (tests lower it). */
export async function readResultFile(
  dir: string,
  file: string,
  cap = RESULT_FILE_CAP_BYTES,
): Promise<ResultFileRead> {
  const path = join(dir, file);
  try {
    // A folder on the way may be a link too: where it really leads must still be inside.
    if (!isInside(await realpath(dirname(path)), await realpath(dir)))
      return refused('lies behind a link that leads out of the folder');
    // Looked at before it is opened: opening a device or a FIFO can have effects of its own.
    const seen = await lstat(path);
    if (!seen.isFile()) return refused(`is ${kindOf(seen)}, not a regular file`);
    if (seen.size > cap) return tooLarge(seen.size, cap);
    const handle = await open(path, FLAGS);
    try {
      const opened = await handle.stat();
      // Swapped for something else between the look and the open.
      if (!opened.isFile() || opened.ino !== seen.ino || opened.dev !== seen.dev)
        return refused('changed while it was opened');
      // One byte past the cap says it grew past it; nothing more is ever held in memory.
      const buffer = Buffer.alloc(Math.min(opened.size, cap) + 1);
      let length = 0;
      while (length < buffer.length) {
        const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
        if (bytesRead === 0) break;
        length += bytesRead;
      }
      if (length > cap) return refused(`grew past the cap of ${cap} bytes while it was read`);
      // A file of /proc says 0 and holds more; so does one a leftover process still writes.
      if (length > opened.size) return refused('holds more than its size says');
      return { kind: 'text', text: buffer.toString('utf8', 0, length) };
    } finally {
      await handle.close();
    }
  } catch (error) {
    const code = errnoOf(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
    if (code === 'ELOOP') return refused('is a symbolic link, not a regular file');
    return refused(`could not be read (${code ?? 'unknown error'})`);
  }
}
