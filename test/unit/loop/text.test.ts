import { describe, expect, it } from 'vitest';
import { findJsonObjects } from '../../../src/find-json.js';
import { hashPrompt, normalisePromptForHash } from '../../../src/prompt-hash.js';
import { countChars, cutText, toOneLine } from '../../../src/loop/text.js';

describe('text helpers', () => {
  it('counts code points and cuts without splitting them', () => {
    expect(countChars('a👍é')).toBe(3);
    expect(cutText('abcdef', 4)).toBe('abc…');
    expect(cutText('abcd', 4)).toBe('abcd');
    expect(cutText('👍👍👍', 2)).toBe('👍…');
    expect(cutText('abc', 0)).toBe('');
    expect(toOneLine(' a\n\tb  c \n')).toBe('a b c');
  });
});

describe('hashPrompt', () => {
  it('ignores line endings and trailing whitespace, nothing else', () => {
    expect(normalisePromptForHash('a  \r\nb\t\r\n\n')).toBe('a\nb');
    expect(hashPrompt('a\r\nb \n')).toBe(hashPrompt('a\nb'));
    expect(hashPrompt('a\nb')).not.toBe(hashPrompt('a\n b'));
    expect(hashPrompt('a b')).not.toBe(hashPrompt('a  b'));
    expect(hashPrompt('x')).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('findJsonObjects', () => {
  it('finds top-level objects in prose and fences, ignoring braces in strings and prose', () => {
    expect(findJsonObjects('{{topic}} then {"a": "}{", "b": {"c": 1}} and {"d": 2}')).toEqual([
      { a: '}{', b: { c: 1 } },
      { d: 2 },
    ]);
    expect(findJsonObjects('```json\n{"a": "x \\" y"}\n```')).toEqual([{ a: 'x " y' }]);
    expect(findJsonObjects('a { stray brace then {"a": 1}')).toEqual([{ a: 1 }]);
    expect(findJsonObjects('[1, 2] "x" nothing')).toEqual([]);
  });

  it('escapes raw control characters inside strings', () => {
    expect(findJsonObjects('{"a": "line\nnext\ttab"}')).toEqual([{ a: 'line\nnext\ttab' }]);
  });
});
