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

describe('countWords agrees with splitting on \\s', () => {
  it('for every kind of JavaScript white space, and for text without any', () => {
    const spaces = [
      ' ',
      '\t',
      '\n',
      '\v',
      '\f',
      '\r',
      '\u00a0',
      '\u1680',
      '\u2000',
      '\u2005',
      '\u200a',
      '\u2028',
      '\u2029',
      '\u202f',
      '\u205f',
      '\u3000',
      '\ufeff',
    ];
    const words = ['a', 'hello', 'naïve', '日本語', '😀x', '\u200b'];
    const samples = ['', '   ', 'one', ...spaces.map((s) => `${s}${words.join(s)}${s}${s}`)];
    for (let i = 0; i < 200; i++) {
      let text = '';
      for (let j = 0; j < 12; j++)
        text += (i * 7 + j) % 3 === 0 ? spaces[(i + j) % spaces.length] : words[(i * j) % words.length];
      samples.push(text);
    }
    for (const text of samples) {
      const expected = text.split(/\s+/).filter((w) => w !== '').length;
      expect(countWords(text), JSON.stringify(text)).toBe(expected);
    }
  });
});
