import { readFile, stat } from 'node:fs/promises';
import type { Problem } from '../errors.js';
import { findInvalidUtf8, type InvalidUtf8 } from './find-invalid-utf8.js';

export type SourceRead =
  | { ok: true; text: string }
  /** `invalidUtf8` when the file is there but not text we can read without guessing. */
  | { ok: false; reason: string; invalidUtf8?: InvalidUtf8 };

/** A user's file as text, or why it cannot be read (said the way a person would check it). */
export async function readSourceFile(path: string): Promise<SourceRead> {
  try {
    const info = await stat(path);
    if (info.isDirectory()) return { ok: false, reason: 'is a folder, not a file' };
    const bytes = await readFile(path);
    const invalidUtf8 = findInvalidUtf8(bytes);
    if (invalidUtf8) return { ok: false, reason: describeInvalidUtf8(invalidUtf8), invalidUtf8 };
    return { ok: true, text: bytes.toString('utf8') };
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

function describeInvalidUtf8(at: InvalidUtf8): string {
  return `is not valid UTF-8 (byte ${at.byte} on line ${at.line})`;
}

/** The problem for a file that is not UTF-8, at the byte where decoding stops. */
export function invalidUtf8Problem(file: string, at: InvalidUtf8): Problem {
  return {
    severity: 'error',
    location: { file, line: at.line, col: at.col },
    keyPath: '',
    message: `not valid UTF-8: byte ${at.byte} does not decode`,
    hint: 'save the file as UTF-8 (it may be Latin-1 or Windows-1252); read as it is, the byte would reach the model as U+FFFD (�)',
  };
}
