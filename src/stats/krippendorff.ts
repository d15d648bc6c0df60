/**
 * Krippendorff's alpha with the ordinal metric (Krippendorff, "Computing Krippendorff's
 * Alpha-Reliability", 2011): how far several judges agree on scores that have an order but no
 * fixed distances (1–5 ratings). 1 is perfect agreement, 0 what chance would give, below 0
 * systematic disagreement. Units rated by fewer than two judges carry no pair and are left
 * out; when fewer than two values are pairable, or every pairable value is the same, there is
 * no variation to agree on and alpha is undefined (null).
 */

/** One unit (an output's criterion): the values the judges gave it; null where a judge gave none. */
export type RatingUnit = readonly (number | null)[];

export function ordinalAlpha(units: readonly RatingUnit[]): number | null {
  const pairable = units
    .map((unit) => unit.filter((v): v is number => v !== null && Number.isFinite(v)))
    .filter((values) => values.length >= 2);
  const values = [...new Set(pairable.flat())].sort((a, b) => a - b);
  if (values.length < 2) return null;
  const index = new Map(values.map((v, i) => [v, i]));
  const size = values.length;
  // Coincidence matrix: every ordered pair of values within a unit, weighted 1/(m_u − 1).
  const coincidences = Array.from({ length: size }, () => new Array<number>(size).fill(0));
  for (const unit of pairable) {
    const weight = 1 / (unit.length - 1);
    for (const [i, a] of unit.entries()) {
      for (const [j, b] of unit.entries()) {
        if (i === j) continue;
        const row = coincidences[index.get(a) as number] as number[];
        row[index.get(b) as number] = (row[index.get(b) as number] ?? 0) + weight;
      }
    }
  }
  const marginals = coincidences.map((row) => row.reduce((sum, v) => sum + v, 0));
  const total = marginals.reduce((sum, v) => sum + v, 0);
  const distance = ordinalDistances(marginals);
  let observed = 0;
  let expected = 0;
  for (let c = 0; c < size; c += 1) {
    for (let k = 0; k < size; k += 1) {
      const d = distance(c, k);
      observed += (coincidences[c]?.[k] ?? 0) * d;
      expected += (marginals[c] ?? 0) * (marginals[k] ?? 0) * d;
    }
  }
  if (expected === 0) return null;
  return 1 - ((total - 1) * observed) / expected;
}

/**
 * The ordinal metric's squared distance between the c-th and k-th values: the count of
 * pairable values from one to the other, the two ends counted by half.
 */
function ordinalDistances(marginals: readonly number[]): (c: number, k: number) => number {
  const cumulative = [0];
  for (const n of marginals) cumulative.push((cumulative[cumulative.length - 1] ?? 0) + n);
  return (c, k) => {
    const lo = Math.min(c, k);
    const hi = Math.max(c, k);
    const between = (cumulative[hi + 1] ?? 0) - (cumulative[lo] ?? 0);
    const d = between - ((marginals[lo] ?? 0) + (marginals[hi] ?? 0)) / 2;
    return d * d;
  };
}
