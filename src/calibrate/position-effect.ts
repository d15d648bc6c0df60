/**
 * The order probe's arithmetic (docs/design/judge-reliability.md), pure. The same outputs are
 * judged twice, the second time in the reverse order of the first, so every output moves as far as
 * it can. A judge that favours early (or late) places then scores each output differently in
 * proportion to how far it moved: with x = place / (n − 1) (0 first, 1 last), the per-output change
 * d = score₁ − score₂ is fitted as β·(x₂ − x₁) by least squares through the origin, and β — the
 * change of an output's weighted score from the last place to the first — gets a Student-t
 * interval. A plain mean of the per-output changes would miss it: a bonus for whichever output
 * comes first is zero-sum across two orders.
 */
import { shuffleSeeded } from '../judge/seeded-shuffle.js';
import { studentTQuantile } from '../loop/paired.js';

/** One output's weighted scores and places in the two judgings. */
export interface PlacedPair {
  first: { score: number; place: number };
  second: { score: number; place: number };
}

export interface Effect {
  estimate: number;
  interval: [number, number];
}

/**
 * β with its two-sided interval at `confidence`; null with fewer than two outputs or when no
 * output changed place.
 */
export function positionEffect(pairs: readonly PlacedPair[], confidence = 0.95): Effect | null {
  const n = pairs.length;
  if (n < 2) return null;
  const points = pairs.map(({ first, second }) => ({
    moved: (second.place - first.place) / (n - 1),
    change: first.score - second.score,
  }));
  const sxx = points.reduce((sum, p) => sum + p.moved ** 2, 0);
  if (sxx === 0) return null;
  const estimate = points.reduce((sum, p) => sum + p.moved * p.change, 0) / sxx;
  const residuals = points.reduce((sum, p) => sum + (p.change - estimate * p.moved) ** 2, 0);
  const se = Math.sqrt(residuals / (n - 1) / sxx);
  const half = studentTQuantile(1 - (1 - confidence) / 2, n - 1) * se;
  return { estimate, interval: [estimate - half, estimate + half] };
}

/**
 * The outputs in the order to hand the judge so that its seeded shuffle (judge-layout.ts)
 * lays them out as `order`: the shuffle's permutation depends only on the count and the seed.
 */
export function arrangeForLayout<T>(order: readonly T[], seed: number): T[] {
  const picks = shuffleSeeded(
    order.map((_, index) => index),
    seed,
  );
  const arranged = new Array<T>(order.length);
  picks.forEach((from, place) => {
    arranged[from] = order[place] as T;
  });
  return arranged;
}
