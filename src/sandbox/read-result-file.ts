/**
 * Reads the file a program was asked to write in the folder it controlled. The program could
 * leave a link there to a host file it cannot see itself (under `os` isolation) but the runner
 * can, or a FIFO that would hold the read forever: only a regular file reached without leaving
 * the folder counts; anything else is no result.
 */
import { constants } from 'node:fs';
import { open, realpath } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { isInside } from './sandbox-mounts.js';

// Not following the last link, and not waiting on a FIFO (its stat then says what it is).
const FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/** The file's text; undefined when there is none, or none that may be read. */
export async function readResultFile(dir: string, file: string): Promise<string | undefined> {
  const path = join(dir, file);
  try {
    // A folder on the way may be a link too: where it really leads must still be inside.
    if (!isInside(await realpath(dirname(path)), await realpath(dir))) return undefined;
    const handle = await open(path, FLAGS);
    try {
      if (!(await handle.stat()).isFile()) return undefined;
      return await handle.readFile('utf8');
    } finally {
      await handle.close();
    }
  } catch {
    return undefined;
  }
}
