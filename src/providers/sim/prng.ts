/**
 * The simulator's only source of randomness: a mulberry32 generator seeded from a sha256 of
 * the inputs, so the same request always yields the same reply and nothing reads Math.random.
 */
import { sha256Bytes } from '../../sha256.js';

export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** True with the given probability. */
  chance(probability: number): boolean;
  /** Uniform integer in [min, max], both included. */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  shuffle<T>(items: readonly T[]): T[];
  /** An independent stream for one decision family, so adding a draw elsewhere leaves it unchanged. */
  fork(label: string): Rng;
}

/** A 32-bit seed from any JSON-serialisable parts. */
export function seedFrom(...parts: unknown[]): number {
  return sha256Bytes(JSON.stringify(parts)).readUInt32LE(0);
}

export function createRng(seed: number): Rng {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1));
  return {
    next,
    chance: (probability) => next() < probability,
    int,
    pick: <T>(items: readonly T[]): T => {
      if (items.length === 0) throw new RangeError('pick from an empty list');
      return items[int(0, items.length - 1)] as T;
    },
    shuffle: <T>(items: readonly T[]): T[] => {
      const copy = [...items];
      for (let i = copy.length - 1; i > 0; i--) {
        const j = int(0, i);
        [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
      }
      return copy;
    },
    fork: (label) => createRng(seedFrom(seed, label)),
  };
}
