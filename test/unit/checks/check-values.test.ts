import { describe, expect, it } from 'vitest';
import { readList, readText, shorten, splitCommaSeparated } from '../../../src/checks/check-values.js';

describe('check values', () => {
  it('splits comma-separated lists, honouring double quotes', () => {
    expect(splitCommaSeparated('a, b ,c')).toEqual(['a', 'b', 'c']);
    expect(splitCommaSeparated('"1,000", in stock')).toEqual(['1,000', 'in stock']);
    expect(splitCommaSeparated('"say ""hi""", x,,')).toEqual(['say "hi"', 'x']);
  });

  it('reads lists and texts the way promptfoo does', () => {
    expect(readList(['a', 2])).toEqual(['a', '2']);
    expect(readList([true])).toBeUndefined();
    expect(readList({ a: 1 })).toBeUndefined();
    expect(readText(0)).toBe('0');
    expect(readText(Number.NaN)).toBeUndefined();
    expect(readText(null)).toBeUndefined();
  });

  it('shortens to one line', () => {
    expect(shorten('a\n  b', 10)).toBe('a b');
    expect(shorten('x'.repeat(50), 10)).toBe(`${'x'.repeat(9)}…`);
  });
});
