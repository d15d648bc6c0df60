/**
 * A run-record JSON file read for review: missing is null (an error iteration writes none), and a
 * damaged one is null plus a problem line naming the file, so `report` and `show` say the record
 * is damaged instead of silently showing less. A file cut short (a full disk, a copy interrupted)
 * is told apart from one that is otherwise not JSON.
 */
import { readdir, readFile } from 'node:fs/promises';
import { isErrno } from '../run/errno.js';

export async function readJsonRecord(file: string, problems: string[]): Promise<unknown> {
  const text = await readTextOrNull(file);
  if (text === null) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    problems.push(describeDamage(file, text, error));
    return null;
  }
}

function describeDamage(file: string, text: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (text.trim() === '') return `${file} is empty, so its record cannot be read`;
  if (endsEarly(text))
    return `${file} is cut short (truncated after ${text.length} characters), so its record cannot be read`;
  return `${file} is not valid JSON (${message}), so its record cannot be read`;
}

/** JSON that stops with brackets still open: what a truncated write leaves. */
function endsEarly(text: string): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (inString) {
      if (char === '\\') i++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '{' || char === '[') depth++;
    else if (char === '}' || char === ']') depth--;
  }
  return inString || depth > 0;
}

export async function readTextOrNull(file: string): Promise<string | null> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if (isErrno(error, 'ENOENT') || isErrno(error, 'ENOTDIR') || isErrno(error, 'EISDIR')) return null;
    throw error;
  }
}

/** A folder's entries, sorted; none when it is missing (a run with no such step). */
export async function listNames(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).sort();
  } catch (error) {
    if (isErrno(error, 'ENOENT') || isErrno(error, 'ENOTDIR')) return [];
    throw error;
  }
}
