/**
 * Seeded percentile bootstrap (docs/design/judge-reliability.md): resample the n items with
 * replacement, recompute the statistic on each resample, and take the middle `level` of the results
 * as the interval. The same seed always gives the same interval, so a calibration can be rerun and
 * compared.
 *
 * A resample on which the statistic is undefined (kappa when every drawn rating is the same)
 * is left out; when more than half are, the data cannot support an interval and it is null.
 */
import { createSeededRandom } from '../judge/seeded-shuffle.js';

export const DEFAULT_RESAMPLES = 2000;
export const DEFAULT_LEVEL = 0.95;

export interface BootstrapOptions {
  /** How many items there are; the statistic receives the drawn indexes (0..n−1). */
  n: number;
  statistic: (indexes: readonly number[]) => number | null;
  seed: number;
  resamples?: number;
  /** Coverage of the interval, e.g. 0.95. */
  level?: number;
}

export function bootstrapInterval(options: BootstrapOptions): [number, number] | null {
  const resamples = options.resamples ?? DEFAULT_RESAMPLES;
  const level = options.level ?? DEFAULT_LEVEL;
  const { n } = options;
  if (n < 2 || resamples < 1) return null;
  const random = createSeededRandom(options.seed);
  const values: number[] = [];
  const drawn = new Array<number>(n);
  for (let r = 0; r < resamples; r++) {
    for (let i = 0; i < n; i++) drawn[i] = Math.floor(random() * n);
    const value = options.statistic(drawn);
    if (value !== null && Number.isFinite(value)) values.push(value);
  }
  if (values.length * 2 < resamples) return null;
  values.sort((a, b) => a - b);
  const tail = (1 - level) / 2;
  return [quantile(values, tail), quantile(values, 1 - tail)];
}

/** Linear interpolation between the closest ranks of sorted values (type 7, as R and numpy). */
export function quantile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) throw new Error('quantile of no values');
  const position = (sorted.length - 1) * Math.min(1, Math.max(0, p));
  const below = Math.floor(position);
  const above = Math.ceil(position);
  const low = sorted[below] as number;
  return low + ((sorted[above] as number) - low) * (position - below);
}

/** The items at the drawn indexes. */
export function pick<T>(items: readonly T[], indexes: readonly number[]): T[] {
  return indexes.map((i) => items[i] as T);
}
