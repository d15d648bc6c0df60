/**
 * The journal's `candidate_evaluated` for a scored candidate: its totals per split, the first
 * gate failure in words, its train criteria and what its calls cost.
 */
import type { RunEventBody, SplitScores } from '../run/events.js';
import type { SplitScore } from '../scoring/index.js';
import type { CandidateJournal, EvaluatedCandidate } from './evaluate-types.js';

export function candidateEvaluated(journal: CandidateJournal, outcome: EvaluatedCandidate): RunEventBody {
  const { train, holdout, all } = outcome.scores;
  const panel = outcome.evaluation.judge?.panel;
  return {
    type: 'candidate_evaluated',
    iteration: journal.iteration,
    candidate: journal.candidate,
    ...(journal.repeat === undefined ? {} : { repeat: journal.repeat }),
    scores: { train: toEventScores(train), holdout: toEventScores(holdout), all: toEventScores(all) },
    gateFailure: describeGateFailure(all),
    criteria: clampCriteria(train.criteria),
    costUsd: outcome.costUsd,
    ...(panel === undefined ? {} : { judgeAlpha: panel.alpha }),
  };
}

function toEventScores(score: SplitScore): SplitScores {
  return {
    total: score.total,
    checks: score.checks ?? null,
    judge: score.judge ?? null,
    expectations: score.expectations ?? null,
  };
}

function describeGateFailure(score: SplitScore): string | null {
  const first = score.gateFailures[0];
  if (!first) return null;
  const more = score.gateFailures.length > 1 ? ` (and ${score.gateFailures.length - 1} more)` : '';
  return `${first.check} failed on ${first.caseId}#${first.sample}: ${first.reason}${more}`;
}

function clampCriteria(criteria: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(criteria).map(([k, v]) => [k, Math.min(5, Math.max(1, v))]));
}
