/**
 * The `auto` margin (docs/design/scoring-and-decisions.md): from repeated evaluations of the same
 * prompt, twice the sample standard deviation, never below `floor`; the mean is the incumbent's
 * baseline score.
 */

export interface NoiseMargin {
  margin: number;
  mean: number;
  /** Sample standard deviation (n − 1); 0 for a single score. */
  stdDev: number;
}

export function noiseMargin(scores: number[], floor = 0.005): NoiseMargin {
  if (scores.length === 0) throw new RangeError('noiseMargin needs at least one score');
  const mean = scores.reduce((sum, score) => sum + score, 0) / scores.length;
  const variance =
    scores.length < 2 ? 0 : scores.reduce((sum, score) => sum + (score - mean) ** 2, 0) / (scores.length - 1);
  const stdDev = Math.sqrt(variance);
  return { margin: Math.max(floor, 2 * stdDev), mean, stdDev };
}
