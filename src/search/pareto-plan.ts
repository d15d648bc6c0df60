/**
 * Which parents an iteration's candidates come from (docs/design/pareto-search.md), pure: the front
 * of the live pool over the train cases (ties within min_effect), each candidate's parent drawn ∝
 * the cases it leads, seeded by (seed, iteration, candidate). The plans are journaled as
 * `parent_chosen` before the mutator is asked; a redone iteration computes the same plans from the
 * same pool. Every `merge_every` iterations, when two front members each lead cases the other does
 * not and were never merged before, the iteration is that one merge instead.
 */
import type { IterationPlan } from '../experiment/iteration-plan.js';
import type { Search } from '../experiment/schema.js';
import type { RunEventBody } from '../run/events.js';
import type { PoolState } from '../run/run-state.js';
import type { CandidatePlan } from './pareto-candidate.js';
import { chooseMergePair, chooseParents, frontOf, frontWeights, liveMembers, mergeKey } from './pool.js';

export function planCandidates(
  pool: PoolState,
  trainIds: readonly string[],
  search: Pick<Search, 'seed' | 'min_effect'>,
  schedule: Pick<IterationPlan, 'iteration' | 'candidates' | 'mergeDue'>,
): CandidatePlan[] {
  const { iteration } = schedule;
  const live = liveMembers(pool.members);
  const front = frontOf(live, trainIds, search.min_effect);
  const weights = frontWeights(front);
  if (schedule.mergeDue) {
    const tried = new Set(
      pool.decisions.flatMap((d) =>
        d.kind === 'merge' && d.parents.length === 2
          ? [mergeKey(d.parents[0] as string, d.parents[1] as string)]
          : [],
      ),
    );
    const pair = chooseMergePair(live, front, tried);
    if (pair !== null)
      return [
        {
          candidate: 0,
          kind: 'merge',
          parents: [pair.a, pair.b],
          ancestor: pair.ancestor,
          weights,
          draw: null,
        },
      ];
  }
  return chooseParents(front, schedule.candidates, search.seed, iteration).map((draw) => ({
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
