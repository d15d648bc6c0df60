/**
 * Replace a file atomically: write a temporary file beside it, optionally fsync it, rename it
 * over the target. A crash leaves the old file or the new one, never half of either.
 *
 * Ours rather than the write-file-atomic package because a run writes dozens of files per
 * iteration, and that package resolves every path with realpath, stats, chowns and chmods each
 * one and registers an exit handler per write, several times the cost of the write itself.
 * Here the folder is created only when the first write into it finds it missing, and only the
 * user's own file (`userFile`) pays for following a symlink and keeping the mode.
 *
 * `durable: false` skips the fsync for files that can be lost to a power failure without
 * harm: derived files the journal rebuilds, and cache entries (a lost entry is a miss, a
 * torn one is read as a miss).
 */
import { mkdir, open, realpath, rename, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { notePath } from './no-space.js';

export interface AtomicWriteOptions {
  /** fsync the data before the rename (default true). */
  durable?: boolean;
  /**
   * A file the user owns (the working-tree prompt): a symlink is followed so the file it names
   * is replaced, not the link, and the file keeps its permission bits.
   */
  userFile?: boolean;
}

let sequence = 0;

/** `<target>.<pid>.<n>.tmp`: the temporary file a write makes beside its target. */
const TEMPORARY_NAME = /\.(\d+)\.\d+\.tmp$/;

/** The pid of the process that was writing a temporary file of ours, or undefined for another name. */
export function temporaryFileWriter(name: string): number | undefined {
  const match = TEMPORARY_NAME.exec(name);
  return match === null ? undefined : Number(match[1]);
}

async function openFresh(file: string, mode: number | undefined) {
  try {
    return await open(file, 'wx', mode);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    await mkdir(dirname(file), { recursive: true });
    return await open(file, 'wx', mode);
  }
}

/** The real path and permission bits of an existing file, or the path as given when it does not exist. */
async function resolveUserFile(file: string): Promise<{ target: string; mode: number | undefined }> {
  const target = await realpath(file).catch(() => file);
  const existing = await stat(target).catch(() => undefined);
  return { target, mode: existing === undefined ? undefined : existing.mode & 0o7777 };
}

export async function writeFileAtomic(
  file: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const { target, mode } = options.userFile ? await resolveUserFile(file) : { target: file, mode: undefined };
  sequence += 1;
  const temporary = `${target}.${process.pid}.${sequence}.tmp`;
  const handle = await openFresh(temporary, mode).catch((error: unknown) => {
    throw notePath(error, target);
  });
  try {
    try {
      await handle.writeFile(data);
      // The umask may have narrowed the mode `open` was given.
      if (mode !== undefined) await handle.chmod(mode);
      if (options.durable ?? true) await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, target);
  } catch (error) {
    await rm(temporary, { force: true });
    throw notePath(error, target);
  }
}
