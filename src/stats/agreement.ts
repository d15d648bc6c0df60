/**
 * How far a judge agrees with people (docs/design/judge-reliability.md), as pure functions over
 * paired ratings: the human's and the judge's rating of the same outputs, in the same order. Raw
 * agreement flatters a judge that gives everyone a 4, so the headline is chance-corrected
 * (quadratic-weighted Cohen's kappa); Spearman says whether the judge at least ranks outputs as
 * people do. For pass/fail expectations: TPR, TNR and the Matthews correlation.
 *
 * A statistic that is undefined for the data (one rating everywhere, one class only) is `null`,
 * never a made-up 0 or 1: the caller says why.
 */

/** Ratings on the rubric's 1–5 scale. */
export const SCALE_MIN = 1;
export const SCALE_MAX = 5;

function requireSameLength(a: readonly unknown[], b: readonly unknown[]): void {
  if (a.length !== b.length) throw new Error(`paired ratings differ in length (${a.length} vs ${b.length})`);
}

/** Share of pairs rated identically; null for no pairs. */
export function exactAgreement(human: readonly number[], judge: readonly number[]): number | null {
  requireSameLength(human, judge);
  if (human.length === 0) return null;
  return human.filter((h, i) => h === judge[i]).length / human.length;
}

/** Share of pairs at most one point apart; null for no pairs. */
export function withinOneAgreement(human: readonly number[], judge: readonly number[]): number | null {
  requireSameLength(human, judge);
  if (human.length === 0) return null;
  return human.filter((h, i) => Math.abs(h - (judge[i] as number)) <= 1).length / human.length;
}

/**
 * Cohen's kappa with quadratic weights over the integer categories min..max:
 * 1 − Σ w·observed / Σ w·expected, w = (i − j)² / (k − 1)², expected from the two marginals.
 * Null when chance alone could not disagree (both raters used one and the same category):
 * agreement beyond chance is then undefined.
 */
export function quadraticKappa(
  human: readonly number[],
  judge: readonly number[],
  min = SCALE_MIN,
  max = SCALE_MAX,
): number | null {
  requireSameLength(human, judge);
  const n = human.length;
  const k = max - min + 1;
  if (n === 0 || k < 2) return null;
  const rows = new Array<number>(k).fill(0);
  const cols = new Array<number>(k).fill(0);
  let observed = 0;
  for (let i = 0; i < n; i++) {
    const h = category(human[i] as number, min, max);
    const j = category(judge[i] as number, min, max);
    rows[h] = (rows[h] as number) + 1;
    cols[j] = (cols[j] as number) + 1;
    observed += (h - j) ** 2;
  }
  let expected = 0;
  for (let h = 0; h < k; h++) {
    for (let j = 0; j < k; j++) expected += ((h - j) ** 2 * (rows[h] as number) * (cols[j] as number)) / n;
  }
  // The (k − 1)² normalisation cancels in the ratio.
  if (expected === 0) return null;
  return 1 - observed / expected;
}

function category(value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`rating ${value} is not an integer between ${min} and ${max}`);
  }
  return value - min;
}

/** Spearman's rho: Pearson's r of the ranks (ties get their mean rank); null when either side is constant. */
export function spearman(a: readonly number[], b: readonly number[]): number | null {
  requireSameLength(a, b);
  if (a.length < 2) return null;
  return pearson(ranks(a), ranks(b));
}

/** 1-based ranks, tied values sharing the mean of the ranks they span. */
export function ranks(values: readonly number[]): number[] {
  const order = values.map((value, index) => ({ value, index })).sort((x, y) => x.value - y.value);
  const sorted = order.map((o) => o.value);
  const out = new Array<number>(values.length);
  for (let start = 0; start < order.length; ) {
    let end = start;
    while (end + 1 < order.length && sorted[end + 1] === sorted[start]) end++;
    const rank = (start + end) / 2 + 1;
    for (let i = start; i <= end; i++) out[(order[i] as { index: number }).index] = rank;
    start = end + 1;
  }
  return out;
}

function pearson(x: readonly number[], y: readonly number[]): number | null {
  const n = x.length;
  const mx = x.reduce((s, v) => s + v, 0) / n;
  const my = y.reduce((s, v) => s + v, 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = (x[i] as number) - mx;
    const dy = (y[i] as number) - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  if (sxx === 0 || syy === 0) return null;
  return sxy / Math.sqrt(sxx * syy);
}

/** Pass/fail pairs counted: "positive" is the human's pass. */
export interface Confusion {
  /** Human pass, judged pass. */
  tp: number;
  /** Human fail, judged pass. */
  fp: number;
  /** Human fail, judged fail. */
  tn: number;
  /** Human pass, judged fail. */
  fn: number;
}

export function confusion(human: readonly boolean[], judged: readonly boolean[]): Confusion {
  requireSameLength(human, judged);
  const counts: Confusion = { tp: 0, fp: 0, tn: 0, fn: 0 };
  human.forEach((h, i) => {
    const j = judged[i] as boolean;
    if (h && j) counts.tp++;
    else if (!h && j) counts.fp++;
    else if (!h && !j) counts.tn++;
    else counts.fn++;
  });
  return counts;
}

/** Share of human passes the grader also passed; null when the humans passed nothing. */
export function truePositiveRate(c: Confusion): number | null {
  return c.tp + c.fn === 0 ? null : c.tp / (c.tp + c.fn);
}

/** Share of human fails the grader also failed; null when the humans failed nothing. */
export function trueNegativeRate(c: Confusion): number | null {
  return c.tn + c.fp === 0 ? null : c.tn / (c.tn + c.fp);
}

/**
 * Matthews correlation coefficient, −1..1; null when a row or column of the table is empty
 * (one class only, on either side): there is no correlation to measure.
 */
export function matthews(c: Confusion): number | null {
  const denominator = (c.tp + c.fp) * (c.tp + c.fn) * (c.tn + c.fp) * (c.tn + c.fn);
  if (denominator === 0) return null;
  return (c.tp * c.tn - c.fp * c.fn) / Math.sqrt(denominator);
}
