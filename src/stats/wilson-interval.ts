/**
 * The Wilson score interval for a proportion: unlike the textbook normal interval it stays
 * inside [0, 1] and does not collapse to a point when every trial agrees (12 of 12 is not
 * "certainly 100%"), which is the usual case for a steady judge's repeat consistency.
 */

/** The standard normal quantile for a two-sided 95% interval. */
export const Z_95 = 1.959963984540054;

/** [lo, hi] for `successes` out of `n` trials (n ≥ 1). */
export function wilsonInterval(successes: number, n: number, z = Z_95): [number, number] {
  if (!(n >= 1)) throw new RangeError(`a proportion needs at least one trial, got ${n}`);
  if (successes < 0 || successes > n) throw new RangeError(`${successes} successes out of ${n} trials`);
  const p = successes / n;
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}
