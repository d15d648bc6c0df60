/**
 * Keep or discard (docs/design/scoring-and-decisions.md). A candidate is kept when it is eligible
 * (no gate failure), its train score beats the incumbent's by strictly more than the train margin,
 * and its holdout score is not below the incumbent's by more than the holdout margin. A gain within
 * the margin with the holdout held is kept only for a shorter prompt. Any eligible candidate beats
 * an ineligible incumbent. Without holdout cases the holdout condition holds vacuously.
 */
import type { IterationStatus } from '../run/events.js';

/** Scores are means of floats: differences within this are equal, so "equal to the margin" is never a gain. */
export const SCORE_EPSILON = 1e-9;

import type { DecisionSide, Margin } from '../run/decision-record.js';

export type { DecisionSide, Margin };

export interface DecideInput {
  candidate: DecisionSide;
  incumbent: DecisionSide;
  margin: Margin;
}

export type DecisionStatus = Extract<IterationStatus, 'keep' | 'discard' | 'gate_fail' | 'holdout_fail'>;

export interface Decision {
  status: DecisionStatus;
  /** One sentence for a person: the numbers behind the status. */
  reason: string;
  /** candidate.train − incumbent.train */
  delta: number;
  /** candidate.holdout − incumbent.holdout; null without holdout cases. */
  holdoutDelta: number | null;
}

export function decide({ candidate, incumbent, margin }: DecideInput): Decision {
  const delta = candidate.train - incumbent.train;
  const holdoutDelta =
    candidate.holdout === null || incumbent.holdout === null ? null : candidate.holdout - incumbent.holdout;
  const result = (status: DecisionStatus, reason: string): Decision => ({
    status,
    reason,
    delta,
    holdoutDelta,
  });

  if (!candidate.eligible)
    return result('gate_fail', 'a gate check failed, so the candidate is not eligible');
  if (!incumbent.eligible)
    return result('keep', 'the incumbent fails a gate and the candidate passes every gate');

  const trainPart = `train ${signed(delta)} vs margin ${fixed(margin.train)}`;
  const holdoutHeld = holdoutDelta === null || holdoutDelta >= -margin.holdout - SCORE_EPSILON;
  const holdoutPart =
    holdoutDelta === null
      ? 'no holdout cases'
      : `holdout ${signed(holdoutDelta)} ${holdoutHeld ? 'within' : 'beyond'} margin ${fixed(margin.holdout)}`;

  if (delta > margin.train + SCORE_EPSILON) {
    if (holdoutHeld) return result('keep', `${trainPart}, ${holdoutPart}`);
    return result('holdout_fail', `${trainPart}, but ${holdoutPart}: the gain does not generalise`);
  }
  const withinMargin = delta >= -margin.train - SCORE_EPSILON;
  if (!withinMargin) return result('discard', `${trainPart}: worse`);
  if (!holdoutHeld) return result('discard', `${trainPart} (no real gain), ${holdoutPart}`);
  if (candidate.chars < incumbent.chars)
    return result(
      'keep',
      `${trainPart} (a tie), ${holdoutPart}, and shorter (${candidate.chars} vs ${incumbent.chars} characters)`,
    );
  return result('discard', `${trainPart}: no gain beyond the margin, and not shorter`);
}

export interface RankedCandidate {
  train: number;
  eligible: boolean;
  chars: number;
}

/**
 * The iteration's candidate among `search.candidates` proposals: the best eligible one by train
 * score, ties going to the shorter prompt, then to the earlier proposal. Holdout plays no part,
 * so it stays an unbiased guard. With no eligible candidate the best ineligible one is returned
 * (its decision is gate_fail); undefined only for an empty list.
 */
export function pickBestCandidate<T extends RankedCandidate>(candidates: readonly T[]): T | undefined {
  let best: T | undefined;
  for (const candidate of candidates) if (best === undefined || isBetter(candidate, best)) best = candidate;
  return best;
}

function isBetter(a: RankedCandidate, b: RankedCandidate): boolean {
  if (a.eligible !== b.eligible) return a.eligible;
  if (Math.abs(a.train - b.train) > SCORE_EPSILON) return a.train > b.train;
  return a.chars < b.chars;
}

/** Scores of the baseline's `noise_repeats` evaluations, per split (holdout empty without holdout cases). */
export interface NoiseSamples {
  train: readonly number[];
  holdout: readonly number[];
}

export const MIN_AUTO_MARGIN = 0.005;

/**
 * The margin a gain must beat: `min_improvement` as given for both splits, or for `auto` per
 * split max(0.005, 2 × the sample standard deviation of the baseline's repeated scores).
 * The n − 1 estimator is the honest one for three or so repeats; one repeat gives the floor.
 */
export function marginFrom(minImprovement: number | 'auto', noise: NoiseSamples): Margin {
  if (minImprovement !== 'auto') return { train: minImprovement, holdout: minImprovement };
  return {
    train: Math.max(MIN_AUTO_MARGIN, 2 * sampleStdDev(noise.train)),
    holdout: Math.max(MIN_AUTO_MARGIN, 2 * sampleStdDev(noise.holdout)),
  };
}

/** The incumbent's baseline scores: the mean of the repeated evaluations, per split. */
export function baselineFrom(noise: NoiseSamples): { train: number; holdout: number | null } {
  const train = meanOf(noise.train);
  if (train === null) throw new Error('the baseline needs at least one train evaluation');
  return { train, holdout: meanOf(noise.holdout) };
}

export function sampleStdDev(values: readonly number[]): number {
  const mean = meanOf(values);
  if (mean === null || values.length < 2) return 0;
  const squares = values.reduce((sum, v) => sum + (v - mean) ** 2, 0);
  return Math.sqrt(squares / (values.length - 1));
}

function meanOf(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  return values.reduce((sum, v) => sum + v, 0) / values.length;
}

/** `+0.042`: a score difference as the decisions' reasons write it. */
export function signed(value: number): string {
  return `${value >= 0 ? '+' : '-'}${Math.abs(value).toFixed(3)}`;
}

function fixed(value: number): string {
  return value.toFixed(3);
}
