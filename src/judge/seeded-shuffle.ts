/**
 * A reproducible shuffle: the same seed always gives the same order (docs/design/judge-protocol.md:
 * order shuffled).
 */

/** mulberry32: small, fast and well spread; plenty for ordering files. */
export function createSeededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Fisher–Yates over a copy; the input is left as it was. */
export function shuffleSeeded<T>(items: readonly T[], seed: number): T[] {
  const random = createSeededRandom(seed);
  const out = [...items];
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}
