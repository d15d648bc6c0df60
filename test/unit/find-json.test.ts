import { describe, expect, it } from 'vitest';
import { findJsonValues } from '../../src/find-json.js';

describe('findJsonValues', () => {
  it('finds objects and lists in prose, ignoring brackets inside strings', () => {
    expect(findJsonValues('a {"x": "}{"} b [1, [2]] c')).toEqual([{ x: '}{' }, [1, [2]]]);
  });

  it('reads ```json fences first', () => {
    expect(findJsonValues('Sure:\n```json\n{"f": 1}\n```')[0]).toEqual({ f: 1 });
    expect(findJsonValues('```\n[true]\n```')[0]).toEqual([true]);
  });

  it('skips spans that are not strict JSON but keeps looking inside them', () => {
    expect(findJsonValues('{bad: [1, 2]} {"a": 1,}')).toEqual([[1, 2]]);
  });

  it('handles escaped quotes and mismatched closers', () => {
    expect(findJsonValues('{"q": "say \\"hi\\" }"}')).toEqual([{ q: 'say "hi" }' }]);
    expect(findJsonValues('[} {"ok": true}')).toEqual([{ ok: true }]);
  });

  it('finds nothing in plain text or in scalars', () => {
    expect(findJsonValues('no json here, just 42 and "strings"')).toEqual([]);
  });
});
