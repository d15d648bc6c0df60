import { describe, expect, it } from 'vitest';
import { countChars, countLines, countWords } from '../../../../src/checks/types/counts.js';

describe('counting', () => {
  it.each([
    ['', 0],
    ['   ', 0],
    ['one', 1],
    ['  one\ttwo\n\nthree  ', 3],
    ['don’t stop-me now', 3],
  ])('words in %j: %i', (text, count) => {
    expect(countWords(text)).toBe(count);
  });

  it.each([
    ['', 0],
    ['abc', 3],
    ['👋🏽', 2],
    ['e\u0301', 2],
  ])('characters (code points) in %j: %i', (text, count) => {
    expect(countChars(text)).toBe(count);
  });

  it.each([
    ['', 0],
    ['one', 1],
    ['one\n', 1],
    ['one\n\n', 2],
    ['a\nb', 2],
    ['a\r\nb\r\n', 2],
    ['\n', 1],
  ])('lines in %j: %i', (text, count) => {
    expect(countLines(text)).toBe(count);
  });
});
