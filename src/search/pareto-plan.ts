/**
 * Which parents an iteration's candidates come from (SPEC 14), pure: the front of the live pool
 * over the train cases (ties within min_effect), each candidate's parent drawn ∝ the cases it
 * leads, seeded by (seed, iteration, candidate). The plans are journaled as `parent_chosen`
 * before the mutator is asked; a redone iteration computes the same plans from the same pool.
 */
import type { Search } from '../experiment/schema.js';
import type { RunEventBody } from '../run/events.js';
import type { PoolState } from '../run/run-state.js';
import type { CandidatePlan } from './pareto-candidate.js';
import { liveMembers } from './member-view.js';
import { chooseParents, frontOf, frontWeights } from './pool.js';

export function planCandidates(
  pool: PoolState,
  trainIds: readonly string[],
  search: Pick<Search, 'candidates' | 'seed' | 'min_effect'>,
  iteration: number,
): CandidatePlan[] {
  const front = frontOf(liveMembers(pool), trainIds, search.min_effect);
  const weights = frontWeights(front);
  return chooseParents(front, search.candidates, search.seed, iteration).map((draw) => ({
    candidate: draw.candidate,
    kind: 'mutation',
    parents: [draw.parent],
    weights,
    draw: draw.draw,
  }));
}

export function parentChosen(iteration: number, plan: CandidatePlan): RunEventBody {
  return {
    type: 'parent_chosen',
    iteration,
    candidate: plan.candidate,
    kind: plan.kind,
    parents: [...plan.parents],
    ...(plan.ancestor === undefined ? {} : { ancestor: plan.ancestor }),
    weights: { ...plan.weights },
    draw: plan.draw,
  };
}
