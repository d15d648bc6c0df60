/**
 * What one evaluation of a candidate yields, carried as one shape from the evaluation to the
 * decision to the record: the scoring input, its score per split, and what its calls cost.
 * `evaluation.json` holds exactly this, and the incumbent is read back from it on resume.
 */
import * as z from 'zod';
import { Evaluation, SplitScore } from '../scoring/index.js';

/** `test` only when the evaluation scored sealed test cases (the final evaluation, `eval --split test`). */
export const CandidateScores = z.object({
  train: SplitScore,
  holdout: SplitScore,
  all: SplitScore,
  test: SplitScore.optional(),
});
export type CandidateScores = z.infer<typeof CandidateScores>;

export const CandidateResult = z.object({
  evaluation: Evaluation,
  scores: CandidateScores,
  /** This candidate's calls (informational: the run's spend is the ledger's, per iteration). */
  costUsd: z.number().min(0),
});
export type CandidateResult = z.infer<typeof CandidateResult>;

/** The figures a decision compares, read off the scores in one place. */
export interface Standing {
  train: number;
  /** null when the experiment has no holdout cases. */
  holdout: number | null;
  /** No gate failure on any case. */
  eligible: boolean;
}

export function standingOf(scores: CandidateScores): Standing {
  return {
    train: scores.train.total ?? 0,
    holdout: scores.holdout.cases.length > 0 ? scores.holdout.total : null,
    eligible: !scores.all.gateFailed,
  };
}
