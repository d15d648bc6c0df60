import { describe, expect, it } from 'vitest';
import { parseExpectations } from '../../../src/grader/read-expectations.js';

describe('parseExpectations', () => {
  it('reads YAML and JSON lists, an expectations key, or one per line', () => {
    expect(parseExpectations('- Names a pain\n- Asks: for a call\n')).toEqual([
      'Names a pain',
      'Asks: for a call',
    ]);
    expect(parseExpectations('["a", "b"]')).toEqual(['a', 'b']);
    expect(parseExpectations('expectations:\n  - one\n  - two\n')).toEqual(['one', 'two']);
    expect(parseExpectations('Names a pain\n\nAsks for a call: by Thursday\n')).toEqual([
      'Names a pain',
      'Asks for a call: by Thursday',
    ]);
    expect(parseExpectations('')).toEqual([]);
  });
});
