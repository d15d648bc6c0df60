/**
 * Model calls an experiment makes (docs/design/paired-acceptance.md): per evaluation of one
 * candidate, per iteration, for the baseline and for the final check. The plan and the cost
 * estimate both use these.
 *
 * Under paired acceptance an iteration's calls depend on what the evidence says: a proposal
 * screened out on its minibatch costs only the minibatch, and an unclear first look costs a
 * retest of both sides. `perIteration` counts the most (every proposal passes its screen and
 * the leader is retested), so the estimate leans high like the rest of the cost estimate;
 * `screening.screenedOut` is the least.
 */
import { acceptanceOf, baselineRepeats, minibatchSize } from './acceptance.js';
import { anchorSettings } from './anchors.js';
import { loopCases } from './loop-cases.js';
import { judgeMembers, roleModels } from './judge-panel.js';
import { isProgramEntry } from './program-entry.js';
import { ROLES, type Role } from './roles.js';
import type { Acceptance } from './schema.js';
import type { Case, Experiment } from './types.js';

export type RoleCounts = Record<Role, number>;

export interface CallCounts {
  acceptance: Acceptance;
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
  /** Paired with `retest` > 0: one retest, both sides with `retest` samples per case (in perIteration). */
  retest: { samples: number; calls: RoleCounts } | null;
  /** Margin with `min_improvement: auto` repeats the baseline `noise_repeats` times; paired evaluates it once. */
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
  const cases = loopCases(experiment);
  const train = cases.filter((c) => c.split === 'train');
  const { judge, grader } = experiment.models;
  const perEvaluation = callsOnCases(experiment, cases, search.samples);
  const programRuns: Partial<Record<Role, number>> = {};
  const judgePrograms = judge === undefined ? 0 : judgeMembers(judge).filter(isProgramEntry).length;
  if (judgePrograms > 0) programRuns.judge = judgePrograms;
  if (grader && isProgramEntry(grader))
    programRuns.grader = cases.filter((c) => c.expectations.length > 0).length;
  const mutator = { ...zero(), mutator: search.candidates };

  const paired = acceptance === 'paired';
  const evaluationsPerIteration = search.candidates + (!paired && search.confirm ? 1 : 0);
  const retest =
    paired && search.retest > 0
      ? { samples: search.retest, calls: times(callsOnCases(experiment, cases, search.retest), 2) }
      : null;
  const perIteration = add(mutator, times(perEvaluation, evaluationsPerIteration), retest?.calls ?? zero());

  const size = minibatchSize(search, train.length);
  // The least: the minibatch with the fewest graded cases a draw can give.
  const fewestGraded = [...train]
    .sort((a, b) => a.expectations.length - b.expectations.length)
    .slice(0, size);
  const screening =
    paired && size < train.length
      ? {
          minibatch: size,
          train: train.length,
          screenedOut: add(
            mutator,
            times(callsOnCases(experiment, fewestGraded, search.samples), search.candidates),
          ),
        }
      : null;
  return {
    acceptance,
    perEvaluation,
    evaluationsPerIteration,
    perIteration,
    screening,
    retest,
    baselineEvaluations: baselineRepeats(search, acceptance),
    finalEvaluations: FINAL_EVALUATIONS,
    perFinalEvaluation: callsOnCases(experiment, experiment.cases, search.samples),
    programRuns,
    anchors: anchorCalls(experiment, train.length * search.samples),
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
