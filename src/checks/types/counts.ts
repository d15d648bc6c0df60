/**
 * `word-count` (whitespace-separated words), `char-count` (Unicode code points, so an emoji
 * counts once) and `line-count` (lines of text: a final newline does not start a new line,
 * blank lines count, the empty output has 0 lines).
 */
import type { CheckDefinition } from '../check-definition.js';
import { errored, verdict } from '../check-result.js';
import { describeBounds, judgeCount, readCountBounds } from '../count-bounds.js';

/** JavaScript's `\s` (white space and line terminators), by UTF-16 code unit. */
function isSpace(code: number): boolean {
  return (
    code === 0x20 ||
    (code >= 0x09 && code <= 0x0d) ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

export function countWords(text: string): number {
  let count = 0;
  // A scan of code units rather than split(/\s+/) (a megabyte of output should not allocate a
  // word array) or a regex per character (which made this the slowest check).
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const space = isSpace(text.charCodeAt(i));
    if (!space && !inWord) count++;
    inWord = !space;
  }
  return count;
}

export function countChars(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

export function countLines(text: string): number {
  if (text === '') return 0;
  let count = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) count++;
  return text.endsWith('\n') ? count - 1 : count;
}

function makeCountCheck(unit: string, count: (text: string) => number): CheckDefinition {
  return {
    validate(entry) {
      return readCountBounds(entry).issues;
    },
    describe(entry) {
      return describeBounds(readCountBounds(entry).bounds);
    },
    run(output, entry) {
      const { bounds, issues } = readCountBounds(entry);
      if (bounds === undefined) return errored(issues.map((issue) => issue.message).join('; '));
      const { ok, reason } = judgeCount(count(output), bounds, unit);
      return verdict(ok, reason);
    },
  };
}

export const wordCountCheck = makeCountCheck('words', countWords);
export const charCountCheck = makeCountCheck('characters', countChars);
export const lineCountCheck = makeCountCheck('lines', countLines);
