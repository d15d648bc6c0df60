/**
 * Whether a new pool member becomes the run's best (docs/design/pareto-search.md), pure: against
 * the current best's stored per-case means docs/design/paired-acceptance.md's keep rule must hold
 * in one look (no retest), and its holdout per-case differences against the baseline (the live
 * seed) must keep mean ≥ −min_effect and upper bound ≥ 0. When several new members qualify in one
 * iteration, the one with the largest mean train difference against the best moves it; ties go to
 * the earlier member.
 */
import { toRecord, tallyOf } from '../loop/accept-paired.js';
import {
  type CaseMeans,
  type PairedDecision,
  decidePaired,
  describeInterval,
  holdoutHolds,
  pairCases,
  pairedInterval,
} from '../loop/paired.js';
import type { BestComparison, PairedDecisionRecord } from '../run/events.js';

export interface BestInput {
  /** The best before this iteration. */
  against: string;
  candidate: CaseMeans;
  candidateEligible: boolean;
  best: CaseMeans;
  bestEligible: boolean;
  /** The live seed's per-case means (train and holdout). */
  baseline: CaseMeans;
  trainIds: readonly string[];
  holdoutIds: readonly string[];
  confidence: number;
  minEffect: number;
  /**
   * The candidate's parent is the best itself: docs/design/paired-acceptance.md already kept it
   * against the best (with its retest when one was needed), and that decision stands instead of a
   * second, thinner look.
   */
  keptAgainstBest?: PairedDecisionRecord;
}

export interface BestVerdict {
  comparison: BestComparison;
  /** Mean train difference against the best: what orders several qualifying members. */
  mean: number;
}

export interface LookInput {
  candidate: CaseMeans;
  candidateEligible: boolean;
  against: CaseMeans;
  againstEligible: boolean;
  trainIds: readonly string[];
  holdoutIds: readonly string[];
  confidence: number;
  minEffect: number;
}

/**
 * docs/design/paired-acceptance.md's rule in one look from stored per-case means (no retest): the
 * decision and its record.
 */
export function pairedLook(input: LookInput): { decision: PairedDecision; record: PairedDecisionRecord } {
  const { trainIds, holdoutIds, confidence, minEffect } = input;
  const trainPairs = pairCases(trainIds, input.candidate, input.against);
  const train = pairedInterval(
    trainPairs.map((p) => p.d),
    confidence,
  );
  const holdout =
    holdoutIds.length > 0
      ? pairedInterval(
          pairCases(holdoutIds, input.candidate, input.against).map((p) => p.d),
          confidence,
        )
      : null;
  const decision = decidePaired({
    train,
    holdout,
    candidateEligible: input.candidateEligible,
    incumbentEligible: input.againstEligible,
    minEffect,
    lastLook: true,
  });
  return {
    decision,
    record: {
      confidence,
      looks: 1,
      train: toRecord(train),
      holdout: holdout ? toRecord(holdout) : null,
      ...tallyOf(trainPairs),
    },
  };
}

export function compareWithBest(input: BestInput): BestVerdict {
  const { holdoutIds, confidence, minEffect } = input;
  const look = pairedLook({ ...input, against: input.best, againstEligible: input.bestEligible });
  const decision = input.keptAgainstBest
    ? { status: 'keep' as const, reason: 'kept against its parent, the best' }
    : look.decision;
  const paired: PairedDecisionRecord = input.keptAgainstBest ?? look.record;
  const baselineHoldout =
    holdoutIds.length > 0
      ? pairedInterval(
          pairCases(holdoutIds, input.candidate, input.baseline).map((p) => p.d),
          confidence,
        )
      : null;
  const holds = holdoutHolds(baselineHoldout, minEffect);
  const moved = decision.status === 'keep' && holds;
  const reason =
    decision.status !== 'keep'
      ? `against the best ${input.against}: ${decision.reason}`
      : holds
        ? `beats the best ${input.against} (${decision.reason})${baselineHoldout ? `; holdout against the baseline ${describeInterval(baselineHoldout)} holds` : ''}`
        : `beats the best ${input.against}, but its holdout against the baseline ${describeInterval(baselineHoldout as NonNullable<typeof baselineHoldout>)} is worse`;
  return {
    comparison: {
      against: input.against,
      paired,
      baselineHoldout: baselineHoldout ? toRecord(baselineHoldout) : null,
      moved,
      reason,
    },
    mean: paired.train.mean,
  };
}

/**
 * One iteration's verdicts (in member order) with at most one `moved`: the qualifying member
 * with the largest mean difference; the others that qualified say which member beat them.
 */
export function settleBest<T extends { member: string; verdict: BestVerdict }>(
  entries: readonly T[],
): { entries: T[]; winner: T | null } {
  let winner: T | null = null;
  for (const entry of entries)
    if (entry.verdict.comparison.moved && (winner === null || entry.verdict.mean > winner.verdict.mean))
      winner = entry;
  const settled = entries.map((entry) =>
    entry === winner || !entry.verdict.comparison.moved
      ? entry
      : {
          ...entry,
          verdict: {
            ...entry.verdict,
            comparison: {
              ...entry.verdict.comparison,
              moved: false,
              reason: `${entry.verdict.comparison.reason}; ${(winner as T).member} beat the best by more`,
            },
          },
        },
  );
  return { entries: settled, winner: winner === null ? null : (settled[entries.indexOf(winner)] as T) };
}
