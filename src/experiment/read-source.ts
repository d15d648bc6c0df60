import { readFile, stat } from 'node:fs/promises';

export type SourceRead = { ok: true; text: string } | { ok: false; reason: string };

/** A user's file as text, or why it cannot be read (said the way a person would check it). */
export async function readSourceFile(path: string): Promise<SourceRead> {
  try {
    const info = await stat(path);
    if (info.isDirectory()) return { ok: false, reason: 'is a folder, not a file' };
    return { ok: true, text: await readFile(path, 'utf8') };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { ok: false, reason: 'does not exist' };
    if (code === 'EACCES') return { ok: false, reason: 'cannot be read (permission denied)' };
    return {
      ok: false,
      reason: `cannot be read (${error instanceof Error ? error.message : String(error)})`,
    };
  }
}
