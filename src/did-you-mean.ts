/** "Did you mean …": the known name nearest to a mistyped key, value or check type, when it is near enough to be a typo. */

/** Levenshtein distance with adjacent transpositions counted as one edit. */
export function measureEditDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) =>
    Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const row = d[i] as number[];
      const prev = d[i - 1] as number[];
      let best = Math.min(
        (prev[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (prev[j - 1] as number) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, ((d[i - 2] as number[])[j - 2] as number) + 1);
      }
      row[j] = best;
    }
  }
  return (d[rows - 1] as number[])[cols - 1] as number;
}

/** The closest candidate within a third of the word's length (at least 1, at most 3 edits), if any. */
export function suggestNearest(word: string, candidates: readonly string[]): string | undefined {
  const lower = word.toLowerCase();
  const allowed = Math.min(3, Math.max(1, Math.floor(word.length / 3)));
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = measureEditDistance(lower, candidate.toLowerCase());
    if (distance <= allowed && (best === undefined || distance < best.distance))
      best = { candidate, distance };
  }
  return best?.candidate;
}
