/**
 * Model calls an experiment makes (docs/design/paired-acceptance.md): per evaluation of one
 * candidate, per iteration, for the baseline and for the final check. The plan and the cost
 * estimate both use these, and an iteration is counted from the plan the loop itself runs
 * (iteration-plan.ts): its proposals, screening minibatch, retests and drift checks.
 *
 * Under paired acceptance an iteration's calls depend on what the evidence says: a proposal
 * screened out on its minibatch costs only the minibatch, and an unclear first look costs a
 * retest of both sides. `perIteration` is an upper bound on the generator, judge and grader
 * calls of any iteration (every proposal passes its screen and every retest the search can run
 * runs; a pareto merge is one candidate, so within it), and counts one mutator reply per
 * proposal: a proposal re-asked after a duplicate or unusable reply (up to MUTATOR_ATTEMPTS
 * asks, src/loop/propose.ts) adds mutator calls beyond it. The baseline and the final check
 * are counted exactly (the final check at its most: two evaluations). Calls a provider retries
 * are not counted. `screening.screenedOut` is the least a mutation iteration calls.
 * test/integration/estimate-vs-run.test.ts holds a sim run's calls to these claims.
 */
import { acceptanceOf, baselineRepeats, minibatchSize, searchStrategyOf } from './acceptance.js';
import { anchorSettings } from './anchors.js';
import { type IterationPlan, planIteration } from './iteration-plan.js';
import { loopCases } from './loop-cases.js';
import { judgeMembers, roleModels } from './judge-panel.js';
import { isProgramEntry } from './program-entry.js';
import { ROLES, type Role } from './roles.js';
import type { Acceptance, SearchName } from './schema.js';
import type { Case, Experiment } from './types.js';

export type RoleCounts = Record<Role, number>;

export interface CallCounts {
  acceptance: Acceptance;
  strategy: SearchName;
  /** One evaluation of one prompt on the loop's cases (train and holdout; the sealed test cases are not among them). */
  perEvaluation: RoleCounts;
  /**
   * Whole evaluations per iteration: one per candidate, plus one when `confirm` re-checks a
   * would-be keep (margin only). A retest is counted apart: it takes `retest` samples.
   */
  evaluationsPerIteration: number;
  /** The most an iteration calls (paired: every proposal passes its screen and a retest runs). */
  perIteration: RoleCounts;
  /** Paired, when the minibatch is smaller than the train cases. */
  screening: {
    minibatch: number;
    train: number;
    /** The least an iteration calls: every proposal stops after its minibatch. */
    screenedOut: RoleCounts;
  } | null;
  /**
   * Paired with `retest` > 0: the retests an iteration can run (greedy one, pareto one per
   * candidate), each of both sides with `retest` samples per case; `calls` is all of them (in
   * perIteration).
   */
  retest: { samples: number; retests: number; calls: RoleCounts } | null;
  /**
   * Margin with `min_improvement: auto` repeats the baseline `noise_repeats` times; paired evaluates
   * it once, and each seed of a pool start (`run --from <run>/pool`) once more.
   */
  baselineEvaluations: number;
  /** The run ends with baseline and best once more, on every case (sealed test cases too). */
  finalEvaluations: number;
  perFinalEvaluation: RoleCounts;
  /** Judge/grader programs (not model entries) run once per evaluation; their own calls are unknown. */
  programRuns: Partial<Record<Role, number>>;
  /**
   * Drift anchors (docs/design/judge-reliability.md): `outputs` baseline outputs judged again once
   * after the baseline and once every `every` iterations, each reading `perReading` calls; null
   * when off.
   */
  anchors: { outputs: number; every: number; perReading: RoleCounts } | null;
  /** Over `budget.iterations`: the iterations where a pareto merge is due, and the drift checks. */
  schedule: { iterations: number; mergesDue: number; driftChecks: number };
}

export const FINAL_EVALUATIONS = 2;

/** Model calls the judge makes per output: every model judge (each member of a panel) `samples` times. */
function modelJudgeSamples(experiment: Pick<Experiment, 'models'>): number {
  return roleModels(experiment.models, ['judge']).reduce((n, m) => n + (m.entry.samples ?? 1), 0);
}

/** Model calls of one evaluation of `cases` with `samples` each (judge and grader programs make none we can count). */
export function callsOnCases(
  experiment: Pick<Experiment, 'models'>,
  cases: readonly Pick<Case, 'expectations'>[],
  samples: number,
): RoleCounts {
  const outputs = cases.length * samples;
  const withExpectations = cases.filter((c) => c.expectations.length > 0).length;
  const { grader } = experiment.models;
  return {
    generator: outputs,
    mutator: 0,
    judge: outputs * modelJudgeSamples(experiment),
    grader: grader && !isProgramEntry(grader) ? withExpectations : 0,
  };
}

export function countCalls(experiment: Experiment): CallCounts {
  const { search } = experiment.config;
  const acceptance = acceptanceOf(search);
  const strategy = searchStrategyOf(search);
  const cases = loopCases(experiment);
  const anchorEvery = anchorSettings(experiment)?.every ?? null;
  const planOf = (iteration: number): IterationPlan =>
    planIteration({ search, strategy, acceptance, cases, iteration, anchorEvery });
  const iterations = experiment.config.budget.iterations;
  const plans = Array.from({ length: iterations }, (_, i) => planOf(i + 1));
  // Every iteration has the same bound (a due merge is one candidate, within it): the first's.
  const plan = planOf(1);
  const train = cases.filter((c) => c.split === 'train');
  const { judge, grader } = experiment.models;
  const perEvaluation = callsOnCases(experiment, cases, search.samples);
  const programRuns: Partial<Record<Role, number>> = {};
  const judgePrograms = judge === undefined ? 0 : judgeMembers(judge).filter(isProgramEntry).length;
  if (judgePrograms > 0) programRuns.judge = judgePrograms;
  if (grader && isProgramEntry(grader))
    programRuns.grader = cases.filter((c) => c.expectations.length > 0).length;
  const mutator = { ...zero(), mutator: plan.candidates };

  const evaluationsPerIteration = plan.candidates + (plan.confirm ? 1 : 0);
  const retest =
    plan.retests > 0
      ? {
          samples: plan.retestSamples,
          retests: plan.retests,
          calls: times(callsOnCases(experiment, cases, plan.retestSamples), 2 * plan.retests),
        }
      : null;
  const perIteration = add(mutator, times(perEvaluation, evaluationsPerIteration), retest?.calls ?? zero());

  const size = minibatchSize(search, train.length);
  // The least: the minibatch with the fewest graded cases a draw can give.
  const fewestGraded = [...train]
    .sort((a, b) => a.expectations.length - b.expectations.length)
    .slice(0, size);
  const screening =
    plan.screening !== null
      ? {
          minibatch: size,
          train: train.length,
          screenedOut: add(
            mutator,
            times(callsOnCases(experiment, fewestGraded, search.samples), plan.candidates),
          ),
        }
      : null;
  return {
    acceptance,
    strategy,
    perEvaluation,
    evaluationsPerIteration,
    perIteration,
    screening,
    retest,
    baselineEvaluations: baselineRepeats(search, acceptance) + (experiment.seeds?.length ?? 0),
    finalEvaluations: FINAL_EVALUATIONS,
    perFinalEvaluation: callsOnCases(experiment, experiment.cases, search.samples),
    programRuns,
    anchors: anchorCalls(experiment, train.length * search.samples),
    schedule: {
      iterations,
      mergesDue: plans.filter((p) => p.mergeDue).length,
      driftChecks: plans.filter((p) => p.driftCheck).length,
    },
  };
}

/** One anchor reading: the built-in judge's calls on the anchors (a judge program's are unknown). */
function anchorCalls(experiment: Experiment, trainOutputs: number): CallCounts['anchors'] {
  const settings = anchorSettings(experiment);
  if (settings === null) return null;
  const outputs = Math.min(settings.anchors, trainOutputs);
  return {
    outputs,
    every: settings.every,
    perReading: { ...zero(), judge: outputs * modelJudgeSamples(experiment) },
  };
}

function zero(): RoleCounts {
  return { generator: 0, mutator: 0, judge: 0, grader: 0 };
}

export function times(counts: Readonly<RoleCounts>, factor: number): RoleCounts {
  return Object.fromEntries(ROLES.map((r) => [r, counts[r] * factor])) as RoleCounts;
}

function add(...all: Readonly<RoleCounts>[]): RoleCounts {
  return Object.fromEntries(ROLES.map((r) => [r, all.reduce((sum, c) => sum + c[r], 0)])) as RoleCounts;
}
