import { describe, expect, test } from 'vitest';
import { createRng, seedFrom } from '../../../../src/providers/sim/prng.js';

describe('seedFrom', () => {
  test('is stable for equal parts and differs when any part changes', () => {
    expect(seedFrom('sim-1', 'hello', 0)).toBe(seedFrom('sim-1', 'hello', 0));
    expect(seedFrom('sim-1', 'hello', 0)).not.toBe(seedFrom('sim-1', 'hello', 1));
    expect(seedFrom('sim-1', 'hello', 0)).not.toBe(seedFrom('sim-2', 'hello', 0));
  });
});

describe('createRng', () => {
  test('replays the same sequence for the same seed', () => {
    const a = createRng(42);
    const b = createRng(42);
    const first = Array.from({ length: 20 }, () => a.next());
    expect(Array.from({ length: 20 }, () => b.next())).toEqual(first);
    expect(new Set(first).size).toBe(20);
    expect(first.every((x) => x >= 0 && x < 1)).toBe(true);
  });

  test('int stays within its inclusive bounds and reaches both ends', () => {
    const rng = createRng(7);
    const seen = new Set(Array.from({ length: 500 }, () => rng.int(3, 6)));
    expect([...seen].sort()).toEqual([3, 4, 5, 6]);
  });

  test('chance follows its probability', () => {
    const rng = createRng(1);
    const hits = Array.from({ length: 4000 }, () => rng.chance(0.3)).filter(Boolean).length;
    expect(hits / 4000).toBeGreaterThan(0.27);
    expect(hits / 4000).toBeLessThan(0.33);
  });

  test('shuffle returns a permutation and leaves the input alone', () => {
    const items = [1, 2, 3, 4, 5, 6, 7, 8];
    const shuffled = createRng(3).shuffle(items);
    expect([...shuffled].sort()).toEqual(items);
    expect(items).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  test('forks are independent of draws made on the parent', () => {
    const a = createRng(9);
    const b = createRng(9);
    b.next();
    b.next();
    expect(a.fork('length').next()).toBe(b.fork('length').next());
    expect(a.fork('length').next()).not.toBe(a.fork('tone').next());
  });

  test('pick refuses an empty list', () => {
    expect(() => createRng(1).pick([])).toThrow(RangeError);
  });
});
