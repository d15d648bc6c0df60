/**
 * Where a JSON text first nests deeper than a limit, found by scanning its brackets (no recursion,
 * no parse): a schema thousands of levels deep would otherwise overflow the stack in whatever walks
 * it next (JSON.stringify, ajv), far from the file that caused it.
 */
import type { KeyPath } from './key-path.js';

export interface TooDeep {
  /** Offset of the bracket that opens the level past the limit. */
  offset: number;
  /** Keys and indexes down to that bracket. */
  path: KeyPath;
}

export function findJsonTooDeep(text: string, limit: number): TooDeep | undefined {
  // One frame per open bracket: the key (object) or index (array) being filled in it.
  const frames: { array: boolean; key: string | number }[] = [];
  let lastString = '';
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '"') {
      const start = i + 1;
      for (i = start; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
      lastString = text.slice(start, i);
    } else if (char === ':') {
      const top = frames[frames.length - 1];
      if (top && !top.array) top.key = lastString;
    } else if (char === ',') {
      const top = frames[frames.length - 1];
      if (top?.array) top.key = (top.key as number) + 1;
    } else if (char === '{' || char === '[') {
      if (frames.length >= limit) return { offset: i, path: frames.map((f) => f.key) };
      frames.push({ array: char === '[', key: char === '[' ? 0 : '' });
    } else if (char === '}' || char === ']') {
      frames.pop();
    }
  }
  return undefined;
}
