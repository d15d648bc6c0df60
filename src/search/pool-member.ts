/**
 * The `pool_member` event of a member entering the pool (docs/design/pareto-search.md): its lineage
 * and its row of the score matrix — each train case's total — from the evaluation it was admitted
 * on. The baseline's seed (p0, or a rebaseline's) and admitted candidates are built the same way.
 */
import { standingOf } from '../evaluate/candidate-result.js';
import type { EvaluatedCandidate } from '../evaluate/evaluate-types.js';
import type { RunEventBody } from '../run/events.js';
import type { DecidedCandidate } from './pareto-candidate.js';
import type { CandidateVerdict } from './pareto-outcome.js';

export function poolMemberEvent(
  iteration: number,
  decided: DecidedCandidate,
  verdict: CandidateVerdict,
  evaluated: EvaluatedCandidate,
): RunEventBody {
  return memberEvent({
    member: verdict.member as string,
    iteration,
    candidate: verdict.candidate,
    kind: decided.plan.kind,
    parents: decided.plan.parents,
    promptSha256: verdict.promptSha256 as string,
    evaluated,
  });
}

export function seedMemberEvent(input: {
  member: string;
  iteration: number;
  /** 0 for the baseline; a pool start's other seeds are the baseline iteration's next candidates. */
  candidate: number;
  promptSha256: string;
  evaluated: EvaluatedCandidate;
  /** A pool start's seed: where it came from (`p3 of run …`). */
  origin?: string;
}): RunEventBody {
  return memberEvent({ ...input, kind: 'seed', parents: [] });
}

function memberEvent(input: {
  member: string;
  iteration: number;
  candidate: number;
  kind: 'seed' | 'mutation' | 'merge';
  parents: readonly string[];
  promptSha256: string;
  evaluated: EvaluatedCandidate;
  origin?: string;
}): RunEventBody {
  const { scores } = input.evaluated;
  const standing = standingOf(scores);
  return {
    type: 'pool_member',
    member: input.member,
    iteration: input.iteration,
    candidate: input.candidate,
    kind: input.kind,
    parents: [...input.parents],
    promptSha256: input.promptSha256,
    train: standing.train,
    holdout: standing.holdout,
    eligible: standing.eligible,
    ...(input.origin === undefined ? {} : { origin: input.origin }),
    cases: Object.fromEntries(
      scores.train.cases.flatMap((c) => (c.total === null ? [] : [[c.caseId, c.total] as const])),
    ),
  };
}
