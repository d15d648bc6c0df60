import { describe, expect, it } from 'vitest';
import { shuffleSeeded } from '../../../src/judge/seeded-shuffle.js';

describe('shuffleSeeded', () => {
  const items = Array.from({ length: 20 }, (_, i) => i);

  it('is reproducible for a seed and keeps every item once', () => {
    const a = shuffleSeeded(items, 7);
    expect(shuffleSeeded(items, 7)).toEqual(a);
    expect([...a].sort((x, y) => x - y)).toEqual(items);
    expect(items).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });

  it('gives different orders for different seeds and actually moves things', () => {
    expect(shuffleSeeded(items, 1)).not.toEqual(shuffleSeeded(items, 2));
    expect(shuffleSeeded(items, 1)).not.toEqual(items);
  });

  it('handles empty and single lists', () => {
    expect(shuffleSeeded([], 3)).toEqual([]);
    expect(shuffleSeeded(['x'], 3)).toEqual(['x']);
  });
});
