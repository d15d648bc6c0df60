/**
 * `word-count` (whitespace-separated words), `char-count` (Unicode code points, so an emoji
 * counts once) and `line-count` (lines of text: a final newline does not start a new line,
 * blank lines count, the empty output has 0 lines).
 */
import type { CheckDefinition } from '../check-definition.js';
import { errored, verdict } from '../check-result.js';
import { describeBounds, judgeCount, readCountBounds } from '../count-bounds.js';

export function countWords(text: string): number {
  let count = 0;
  // A scan rather than split(/\s+/): a megabyte of output should not allocate a word array.
  let inWord = false;
  for (const char of text) {
    const space = /\s/.test(char);
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
