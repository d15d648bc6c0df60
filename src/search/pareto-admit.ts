/**
 * Admission to the pareto pool (docs/design/pareto-search.md), after each candidate was decided
 * against its parent: a merge must also be kept against its second member, and the admitted ones
 * are compared with the best, which at most one of them moves (best-comparison.ts).
 */
import type { EvaluatedCandidate } from '../evaluate/evaluate-types.js';
import type { Search } from '../experiment/schema.js';
import { caseMeansOf } from '../loop/accept-paired.js';
import { type IncumbentView, loadCandidateEvaluation } from '../loop/incumbent.js';
import type { LoopRun } from '../loop/loop-deps.js';
import type { PoolState } from '../run/run-state.js';
import { compareWithBest, pairedLook, settleBest } from './best-comparison.js';
import { memberById } from './member-view.js';
import type { DecidedCandidate } from './pareto-candidate.js';
import { type CandidateVerdict, verdictOf } from './pareto-outcome.js';
import { memberNumber, nextMemberId } from '../run/member-id.js';
import { liveMembers } from './pool.js';

/**
 * Admission: every candidate docs/design/paired-acceptance.md kept against its parent becomes the
 * next member (in candidate order) and is compared with the best; at most one moves it
 * (best-comparison.ts).
 */
export async function admitToPool(
  deps: LoopRun,
  input: { pool: PoolState; best: IncumbentView; decided: readonly DecidedCandidate[]; trainIds: string[] },
): Promise<CandidateVerdict[]> {
  const { pool, best, decided, trainIds } = input;
  const { search } = deps.experiment.config;
  const holdoutIds = deps.experiment.cases.filter((c) => c.split === 'holdout').map((c) => c.id);
  const verdicts = decided.map((d) => {
    const verdict = verdictOf(d);
    return d.merge ? againstOther(verdict, d, { trainIds, holdoutIds, search }) : verdict;
  });
  const pooled = verdicts.filter((v) => v.status === 'pooled');
  if (pooled.length === 0) return verdicts;
  const bestId = pool.best as string;
  const seed = liveMembers(pool.members)[0] ?? memberById(pool, bestId);
  const stored = await loadCandidateEvaluation(deps.runDir, seed.iteration, seed.candidate);
  const baseline = caseMeansOf(stored.scores, stored.evaluation.samples);
  const bestMeans = caseMeansOf(best.scores, best.evaluation.samples);
  let next = memberNumber(nextMemberId(pool.members));
  const compared = pooled.map((verdict) => {
    const d = decided.find((x) => x.plan.candidate === verdict.candidate) as DecidedCandidate;
    const evaluated = evaluatedOf(d) as EvaluatedCandidate;
    const member = `p${next++}`;
    const kept = d.plan.parents[0] === bestId && verdict.paired ? { keptAgainstBest: verdict.paired } : {};
    return {
      member,
      candidate: verdict.candidate,
      verdict: compareWithBest({
        against: bestId,
        candidate: caseMeansOf(evaluated.scores, evaluated.evaluation.samples),
        candidateEligible: verdict.eligible,
        best: bestMeans,
        bestEligible: best.eligible,
        baseline,
        trainIds,
        holdoutIds,
        confidence: search.confidence,
        minEffect: search.min_effect,
        ...kept,
      }),
    };
  });
  const settled = settleBest(compared).entries;
  return verdicts.map((verdict) => {
    const entry = settled.find((e) => e.candidate === verdict.candidate);
    return entry ? { ...verdict, member: entry.member, best: entry.verdict.comparison } : verdict;
  });
}

/**
 * A merge enters the pool only if docs/design/paired-acceptance.md keeps it against both members
 * (docs/design/pareto-search.md): against the first it was decided like any candidate; against the
 * second from stored per-case means, one look at `search.confidence`.
 */
function againstOther(
  verdict: CandidateVerdict,
  decided: DecidedCandidate,
  input: { trainIds: readonly string[]; holdoutIds: readonly string[]; search: Search },
): CandidateVerdict {
  const evaluated = evaluatedOf(decided);
  const other = decided.merge?.other;
  if (verdict.status !== 'pooled' || evaluated === null || other === undefined) return verdict;
  const look = pairedLook({
    candidate: caseMeansOf(evaluated.scores, evaluated.evaluation.samples),
    candidateEligible: verdict.eligible,
    against: caseMeansOf(other.scores, other.evaluation.samples),
    againstEligible: other.eligible,
    trainIds: input.trainIds,
    holdoutIds: input.holdoutIds,
    confidence: input.search.confidence,
    minEffect: input.search.min_effect,
  });
  const otherId = decided.plan.parents[1] as string;
  const { status } = look.decision;
  if (status === 'keep') return { ...verdict, pairedOther: look.record };
  return {
    ...verdict,
    // A last look never asks for a retest.
    status: status === 'retest' ? 'inconclusive' : status,
    pairedOther: look.record,
    message: `kept against ${decided.plan.parents[0]}, but against ${otherId}: ${look.decision.reason}`,
  };
}

export function evaluatedOf(decided: DecidedCandidate): EvaluatedCandidate | null {
  return 'result' in decided && decided.result.ok ? decided.result.chosen.outcome : null;
}
