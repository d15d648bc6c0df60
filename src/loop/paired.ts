/**
 * Acceptance by paired statistics (docs/design/paired-acceptance.md), as pure functions. Candidate
 * and incumbent are compared case by case on the same cases: a case's difference is the difference
 * of its per-sample means (its samples are one cluster, never counted as separate cases), and the
 * mean difference gets a one-sided Student-t interval. Pairing removes what makes a case hard
 * or easy for both prompts alike, which is most of the noise of a small case set.
 *
 * The loop evaluates and journals; this module only turns per-case scores into intervals and
 * intervals into a decision, so every edge (n = 2, zero variance, all ties, a gate failure on
 * either side) is tested without a model call.
 */
import { SCORE_EPSILON, signed } from './decide.js';

/** One side's score of one case: the mean over its samples, and how many samples that is. */
export interface CaseMean {
  mean: number;
  samples: number;
}

export type CaseMeans = ReadonlyMap<string, CaseMean>;

/** The mean per-case difference with its one-sided bounds at the look's confidence. */
export interface Interval {
  /** Cases compared. */
  n: number;
  mean: number;
  /** Sample standard deviation of the per-case differences (0 for n < 2). */
  sd: number;
  /** null when n < 2: one case says nothing about the spread. */
  lo: number | null;
  hi: number | null;
  /**
   * With groups of cases: how many groups the interval was computed over. `mean` and `sd` are
   * then those of the group means, and the degrees of freedom groups − 1. Absent: the cases are
   * taken as independent.
   */
  groups?: number;
}

/** Two evaluations of the same cases (more samples): each case's mean over all its samples. */
export function poolCaseMeans(a: CaseMeans, b: CaseMeans): Map<string, CaseMean> {
  const pooled = new Map<string, CaseMean>(a);
  for (const [id, more] of b) {
    const known = pooled.get(id);
    if (!known) {
      pooled.set(id, more);
      continue;
    }
    const samples = known.samples + more.samples;
    pooled.set(id, { mean: (known.mean * known.samples + more.mean * more.samples) / samples, samples });
  }
  return pooled;
}

export interface CaseDifference {
  caseId: string;
  candidate: number;
  incumbent: number;
  /** candidate − incumbent */
  d: number;
}

/** Per-case differences on `caseIds` that both sides scored, in the order given. */
export function pairCases(
  caseIds: readonly string[],
  candidate: CaseMeans,
  incumbent: CaseMeans,
): CaseDifference[] {
  return caseIds.flatMap((caseId) => {
    const c = candidate.get(caseId);
    const i = incumbent.get(caseId);
    if (!c || !i) return [];
    return [{ caseId, candidate: c.mean, incumbent: i.mean, d: c.mean - i.mean }];
  });
}

export function pairedInterval(differences: readonly number[], confidence: number): Interval {
  const n = differences.length;
  if (n === 0) return { n, mean: 0, sd: 0, lo: null, hi: null };
  const mean = differences.reduce((sum, d) => sum + d, 0) / n;
  if (n < 2) return { n, mean, sd: 0, lo: null, hi: null };
  const squares = differences.reduce((sum, d) => sum + (d - mean) ** 2, 0);
  const sd = Math.sqrt(squares / (n - 1));
  const half = studentTQuantile(confidence, n - 1) * (sd / Math.sqrt(n));
  return { n, mean, sd, lo: mean - half, hi: mean + half };
}

/** One case's difference with the group it belongs to (absent: the case is a group of its own). */
export interface GroupedDifference {
  d: number;
  group?: string | undefined;
}

/**
 * The interval when cases come in groups that may share an effect (docs/design/paired-acceptance.md,
 * "Groups of cases"): the per-case differences are averaged within each group and the interval is
 * taken on the G group means with G − 1 degrees of freedom — the cluster-robust interval that
 * keeps its error however strongly cases within a group are related, as long as groups are
 * independent of each other. Each group weighs the same, whatever its size. A case without a
 * group counts as a group of its own; with no group at all this is `pairedInterval` over cases.
 */
export function groupedInterval(differences: readonly GroupedDifference[], confidence: number): Interval {
  if (!differences.some((x) => x.group !== undefined))
    return pairedInterval(
      differences.map((x) => x.d),
      confidence,
    );
  const sums = new Map<string, { sum: number; count: number }>();
  differences.forEach((x, i) => {
    // A case without a group is its own group; the prefix keeps it apart from any named group.
    const key = x.group === undefined ? `\u0000case ${i}` : `group ${x.group}`;
    const known = sums.get(key) ?? { sum: 0, count: 0 };
    sums.set(key, { sum: known.sum + x.d, count: known.count + 1 });
  });
  const means = [...sums.values()].map((g) => g.sum / g.count);
  return { ...pairedInterval(means, confidence), n: differences.length, groups: means.length };
}

/**
 * The confidence of each look. With a retest the decision may be taken twice on growing data,
 * so each look is held to 1 − (1 − c)/2 and the pair keeps the error rate at 1 − c.
 */
export function lookConfidence(confidence: number, retest: number): number {
  return retest > 0 ? 1 - (1 - confidence) / 2 : confidence;
}

export type PairedStatus = 'keep' | 'discard' | 'retest' | 'inconclusive' | 'gate_fail' | 'holdout_fail';

export interface PairedInput {
  train: Interval;
  /** null without holdout cases. */
  holdout: Interval | null;
  candidateEligible: boolean;
  incumbentEligible: boolean;
  minEffect: number;
  /** The last look: an unclear result is `inconclusive` instead of `retest`. */
  lastLook: boolean;
}

export interface PairedDecision {
  status: PairedStatus;
  /** One sentence for a person: the numbers behind the status. */
  reason: string;
}

export function decidePaired(input: PairedInput): PairedDecision {
  const { train, holdout, minEffect } = input;
  if (!input.candidateEligible)
    return { status: 'gate_fail', reason: 'a gate check failed, so the candidate is not eligible' };
  if (!input.incumbentEligible)
    return { status: 'keep', reason: 'the incumbent fails a gate and the candidate passes every gate' };

  const trainPart = `train ${describeInterval(train)}`;
  const clearGain = train.lo !== null && train.lo > SCORE_EPSILON && train.mean >= minEffect - SCORE_EPSILON;
  if (clearGain) {
    if (holdoutHolds(holdout, minEffect))
      return { status: 'keep', reason: `${trainPart}: better, ${describeHoldout(holdout)}` };
    return {
      status: 'holdout_fail',
      reason: `${trainPart}: better, but holdout ${describeInterval(holdout as Interval)} is worse: the gain does not generalise`,
    };
  }
  if (train.hi !== null && train.hi < minEffect - SCORE_EPSILON)
    return {
      status: 'discard',
      reason: `${trainPart}: no gain of ${fixed(minEffect)} (the min effect) is plausible`,
    };
  if (input.lastLook)
    return {
      status: 'inconclusive',
      reason: `${trainPart}: neither a clear gain of ${fixed(minEffect)} nor clearly less, after the retest`,
    };
  return { status: 'retest', reason: `${trainPart}: unclear, so both sides get more samples` };
}

/** Holdout must not be clearly worse: mean ≥ −min_effect and the upper bound ≥ 0. */
export function holdoutHolds(holdout: Interval | null, minEffect: number): boolean {
  if (holdout === null || holdout.n === 0) return true;
  if (holdout.mean < -minEffect - SCORE_EPSILON) return false;
  return holdout.hi === null || holdout.hi >= -SCORE_EPSILON;
}

function describeHoldout(holdout: Interval | null): string {
  return holdout === null || holdout.n === 0
    ? 'no holdout cases'
    : `holdout ${describeInterval(holdout)} holds`;
}

/** `+0.042 [+0.011, +0.073] over 12 cases` */
export function describeInterval(interval: Interval): string {
  const bounds =
    interval.lo === null || interval.hi === null ? '' : ` [${signed(interval.lo)}, ${signed(interval.hi)}]`;
  const groups =
    interval.groups === undefined ? '' : ` in ${interval.groups} group${interval.groups === 1 ? '' : 's'}`;
  return `${signed(interval.mean)}${bounds} over ${interval.n} case${interval.n === 1 ? '' : 's'}${groups}`;
}

/**
 * The screen's rule: the rest of the cases are evaluated only when the minibatch's mean difference
 * is positive. It stays the mean over cases even with groups: the screen only orders the work (a
 * sign, no interval), so a related pair of cases can sway it but never makes a keep.
 */
export function passesScreen(differences: readonly number[]): boolean {
  if (differences.length === 0) return true;
  return differences.reduce((sum, d) => sum + d, 0) / differences.length > SCORE_EPSILON;
}

/**
 * The smallest true mean difference the rule detects with the given power: a one-sided test at
 * `confidence` over n cases whose differences spread with `sd`.
 * (t_c + t_power) · sd / √n with n − 1 degrees of freedom.
 */
export function detectableEffect(n: number, sd: number, confidence: number, power = 0.8): number | null {
  if (n < 2) return null;
  return ((studentTQuantile(confidence, n - 1) + studentTQuantile(power, n - 1)) * sd) / Math.sqrt(n);
}

/** The p-quantile of Student's t with `df` degrees of freedom (p in (0, 1)), by bisection on the CDF. */
export function studentTQuantile(p: number, df: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`a quantile needs 0 < p < 1, got ${p}`);
  if (!(df > 0)) throw new RangeError(`degrees of freedom must be positive, got ${df}`);
  if (p === 0.5) return 0;
  if (p < 0.5) return -studentTQuantile(1 - p, df);
  let lo = 0;
  let hi = 1;
  while (studentTCdf(hi, df) < p) hi *= 2;
  for (let i = 0; i < 200 && hi - lo > 1e-12 * Math.max(1, hi); i++) {
    const mid = (lo + hi) / 2;
    if (studentTCdf(mid, df) < p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** P(T ≤ t) for Student's t with `df` degrees of freedom, through the regularized incomplete beta. */
export function studentTCdf(t: number, df: number): number {
  const tail = 0.5 * incompleteBeta(df / (df + t * t), df / 2, 0.5);
  return t >= 0 ? 1 - tail : tail;
}

/** I_x(a, b), evaluated by its continued fraction (Lentz), on the side where it converges fast. */
function incompleteBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log(1 - x));
  if (x < (a + 1) / (a + b + 2)) return (front * betaFraction(x, a, b)) / a;
  return 1 - (front * betaFraction(1 - x, b, a)) / b;
}

function betaFraction(x: number, a: number, b: number): number {
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  if (Math.abs(d) < tiny) d = tiny;
  d = 1 / d;
  let result = d;
  for (let m = 1; m <= 300; m++) {
    const m2 = 2 * m;
    let step = (m * (b - m) * x) / ((a + m2 - 1) * (a + m2));
    d = 1 + step * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + step / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    result *= d * c;
    step = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1));
    d = 1 + step * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + step / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const delta = d * c;
    result *= delta;
    if (Math.abs(delta - 1) < 1e-15) break;
  }
  return result;
}

/** ln Γ(z) for z > 0 (Lanczos, g = 7). */
function logGamma(z: number): number {
  const coefficients = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
    12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  if (z < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * z)) - logGamma(1 - z);
  const x = z - 1;
  let sum = coefficients[0] as number;
  for (let i = 1; i < coefficients.length; i++) sum += (coefficients[i] as number) / (x + i);
  const t = x + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(sum);
}

function fixed(value: number): string {
  return value.toFixed(3);
}
