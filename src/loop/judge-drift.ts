/**
 * Drift anchors as arithmetic (docs/design/judge-reliability.md), pure so every edge is tested
 * without a judge. A few baseline outputs (the anchors) are judged again: right after the baseline,
 * to measure how far the judge's score of an unchanged output moves by itself (its noise), and
 * every few iterations, to see whether the judge has moved since (drift). Scores are the judge
 * signal of one output (its rubric-weighted criteria, 0..1), as scoring computes it.
 *
 * A change of one anchor is the difference of two reads of the same output, at the baseline
 * and now; with no drift it is distributed like the baseline's re-read changes, so the mean
 * over N anchors has a spread of about noise/√N (noise: the root mean square of the re-read
 * changes). A check is beyond noise when the mean change exceeds twice that and its two-sided
 * 95% Student-t interval excludes zero.
 */
import { combine } from '../scoring/combine.js';
import { normaliseCriteria } from '../scoring/judge-signal.js';
import { shuffleSeeded } from '../judge/seeded-shuffle.js';
import type { Evaluation, Signals } from '../scoring/index.js';
import type { Weights } from '../experiment/schema.js';
import { SCORE_EPSILON } from './decide.js';
import { pairedInterval } from './paired.js';

/** One-sided 0.975 on each side: a two-sided 95% interval. */
export const DRIFT_CONFIDENCE = 0.975;

export interface Anchor {
  caseId: string;
  sample: number;
  /** The output file's text, as the judge read it. */
  text: string;
  /** Its judge signal (0..1) in the baseline's evaluation. */
  baseline: number;
}

export interface Reading {
  baseline: number;
  now: number;
}

export interface DriftAssessment {
  mean: number;
  lo: number | null;
  hi: number | null;
  band: number;
  beyondNoise: boolean;
}

/**
 * `count` judged train outputs of the baseline, chosen with `seed`: a shuffled order in which
 * every case's first sample comes before any case's second, so the anchors spread over cases.
 */
export function pickAnchors(
  evaluation: Evaluation,
  count: number,
  seed: number,
  textOf: (output: Evaluation['outputs'][number]) => string,
): Anchor[] {
  const judge = evaluation.judge;
  if (judge === undefined || count <= 0) return [];
  const train = new Set(evaluation.cases.filter((c) => c.split === 'train').map((c) => c.id));
  const records = new Map(judge.scores.map((r) => [`${r.caseId}\u0000${r.sample}`, r]));
  const candidates = evaluation.outputs
    .filter((o) => o.ok && train.has(o.caseId) && records.has(`${o.caseId}\u0000${o.sample}`))
    .sort((a, b) => (a.caseId === b.caseId ? a.sample - b.sample : a.caseId < b.caseId ? -1 : 1));
  const shuffled = shuffleSeeded(candidates, seed);
  const rank = new Map<string, number>();
  const round = shuffled.map((o) => {
    const seen = rank.get(o.caseId) ?? 0;
    rank.set(o.caseId, seen + 1);
    return seen;
  });
  const spread = shuffled.map((o, index) => ({ o, index, round: round[index] as number }));
  spread.sort((a, b) => a.round - b.round || a.index - b.index);
  return spread.slice(0, count).map(({ o }) => {
    const record = records.get(`${o.caseId}\u0000${o.sample}`);
    return {
      caseId: o.caseId,
      sample: o.sample,
      text: textOf(o),
      baseline: normaliseCriteria(record?.criteria ?? {}, judge.criteria),
    };
  });
}

/** The judge's noise: the root mean square of the re-read changes (0 for none). */
export function judgeNoise(readings: readonly Reading[]): number {
  if (readings.length === 0) return 0;
  const squares = readings.reduce((sum, r) => sum + (r.now - r.baseline) ** 2, 0);
  return Math.sqrt(squares / readings.length);
}

export function assessDrift(readings: readonly Reading[], noise: number): DriftAssessment {
  const changes = readings.map((r) => r.now - r.baseline);
  const interval = pairedInterval(changes, DRIFT_CONFIDENCE);
  const band = changes.length === 0 ? 0 : (2 * noise) / Math.sqrt(changes.length);
  // Below two anchors there is no interval: the size of the change alone decides.
  const excludesZero =
    interval.lo === null || interval.hi === null
      ? true
      : interval.lo > SCORE_EPSILON || interval.hi < -SCORE_EPSILON;
  return {
    mean: interval.mean,
    lo: interval.lo,
    hi: interval.hi,
    band,
    beyondNoise: changes.length > 0 && excludesZero && Math.abs(interval.mean) > band + SCORE_EPSILON,
  };
}

/**
 * The judge signal's share of the total score, given which signals the scores have
 * (docs/design/scoring-and-decisions.md: absent signals drop out and the weights of the rest are
 * renormalised).
 */
export function judgeShare(weights: Weights, present: Signals): number {
  const unit: Signals = {
    ...(present.checks === undefined ? {} : { checks: 0 }),
    judge: 1,
    ...(present.expectations === undefined ? {} : { expectations: 0 }),
  };
  return combine(unit, weights) ?? 1;
}

/**
 * The judge's noise as it reaches a paired decision (docs/design/paired-acceptance.md): each side's
 * case mean carries a judge error of share · (noise/√2)/√samples, their difference √2 times that,
 * and the mean over `cases` train cases 1/√cases of it.
 */
export function decisionNoise(noise: number, share: number, cases: number, samples: number): number {
  return (noise * share) / Math.sqrt(Math.max(1, cases) * Math.max(1, samples));
}
