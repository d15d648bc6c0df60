/**
 * Model calls an experiment makes (issue 2): per evaluation of one candidate, per iteration,
 * for the baseline and for the final check. The plan and the cost estimate both use these.
 */
import { loopCases } from './loop-cases.js';
import { isProgramEntry } from './program-entry.js';
import type { Role } from './roles.js';
import type { Case, Experiment } from './types.js';

export type RoleCounts = Record<Role, number>;

export interface CallCounts {
  /** One evaluation of one prompt on the loop's cases (train and holdout; the sealed test cases are not among them). */
  perEvaluation: RoleCounts;
  /** Evaluations per iteration: one per candidate, plus one when `confirm` re-checks a would-be keep. */
  evaluationsPerIteration: number;
  perIteration: RoleCounts;
  /** The baseline is evaluated `noise_repeats` times; the run ends with baseline and best once more. */
  baselineEvaluations: number;
  finalEvaluations: number;
  /** Judge/grader programs (not model entries) run once per evaluation; their own calls are unknown. */
  programRuns: Partial<Record<Role, number>>;
}

export const FINAL_EVALUATIONS = 2;

/** Model calls of one evaluation of `cases` with `samples` each (judge and grader programs make none we can count). */
export function callsOnCases(
  experiment: Pick<Experiment, 'models'>,
  cases: readonly Pick<Case, 'expectations'>[],
  samples: number,
): RoleCounts {
  const outputs = cases.length * samples;
  const withExpectations = cases.filter((c) => c.expectations.length > 0).length;
  const { judge, grader } = experiment.models;
  const judgeSamples = judge && !isProgramEntry(judge) ? (judge.samples ?? 1) : 1;
  return {
    generator: outputs,
    mutator: 0,
    judge: judge && !isProgramEntry(judge) ? outputs * judgeSamples : 0,
    grader: grader && !isProgramEntry(grader) ? withExpectations : 0,
  };
}

export function countCalls(experiment: Experiment): CallCounts {
  const { search } = experiment.config;
  const evaluated = loopCases(experiment);
  const withExpectations = evaluated.filter((c) => c.expectations.length > 0).length;
  const { judge, grader } = experiment.models;
  const perEvaluation = callsOnCases(experiment, evaluated, search.samples);
  const programRuns: Partial<Record<Role, number>> = {};
  if (judge && isProgramEntry(judge)) programRuns.judge = 1;
  if (grader && isProgramEntry(grader)) programRuns.grader = withExpectations;

  const evaluationsPerIteration = search.candidates + (search.confirm ? 1 : 0);
  const perIteration: RoleCounts = {
    generator: perEvaluation.generator * evaluationsPerIteration,
    mutator: search.candidates,
    judge: perEvaluation.judge * evaluationsPerIteration,
    grader: perEvaluation.grader * evaluationsPerIteration,
  };
  return {
    perEvaluation,
    evaluationsPerIteration,
    perIteration,
    baselineEvaluations: search.noise_repeats,
    finalEvaluations: FINAL_EVALUATIONS,
    programRuns,
  };
}
