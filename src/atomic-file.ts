/**
 * Replace a file we own (run records, cache entries) atomically: write a temporary file
 * beside it, optionally fsync it, rename it over the target. A crash leaves the old file or
 * the new one, never half of either.
 *
 * Ours rather than write-file-atomic for these files because a run writes dozens per
 * iteration and that package resolves every path with realpath (an lstat per path component)
 * and creates the folder first each time; here the folder is created only when the first
 * write into it finds it missing. (The user's own prompt file, which may be a symlink, still
 * goes through write-file-atomic: see src/git/prompt-file.ts.)
 *
 * `durable: false` skips the fsync for files that can be lost to a power failure without
 * harm: derived files the journal rebuilds, and cache entries (a lost entry is a miss, a
 * torn one is read as a miss).
 */
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';

export interface AtomicWriteOptions {
  /** fsync the data before the rename (default true). */
  durable?: boolean;
}

let sequence = 0;

async function openFresh(file: string) {
  try {
    return await open(file, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    await mkdir(dirname(file), { recursive: true });
    return await open(file, 'wx');
  }
}

export async function writeFileAtomic(
  file: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  sequence += 1;
  const temporary = `${file}.${process.pid}.${sequence}.tmp`;
  const handle = await openFresh(temporary);
  try {
    try {
      await handle.writeFile(data);
      if (options.durable ?? true) await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
