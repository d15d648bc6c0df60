/**
 * The last stage of an evaluation: the outputs, their checks, the judge's scores and the
 * gradings become the scoring input (kept in evaluation.json) and its score per split.
 */
import type { SampleChecks } from '../checks/check-result.js';
import { globalChecks } from '../checks/output-schema-gate.js';
import type { Case, Experiment } from '../experiment/types.js';
import { type CaseGrading, type Evaluation, scoreSplit, toScoringCases } from '../scoring/index.js';
import { panelRecord } from '../judge/panel-scores.js';
import type { CandidateResult } from './candidate-result.js';
import type { Generation, GradedCase, JudgeSuccess } from './evaluate-types.js';

export interface ScoreInput {
  experiment: Experiment;
  cases: readonly Case[];
  samples: number;
  generations: readonly Generation[];
  checks: SampleChecks[];
  /** Whether the experiment is judged (even when nothing was generated to judge). */
  judged: boolean;
  judge?: JudgeSuccess;
  gradings: readonly GradedCase[];
}

export function scoreCandidate(input: ScoreInput): Omit<CandidateResult, 'costUsd'> {
  const { experiment, judge } = input;
  const rubric = experiment.rubric;
  const gradings: CaseGrading[] = input.gradings.map((graded) => ({
    caseId: graded.caseId,
    expectations: graded.grading.expectations.map((e) => ({
      text: e.text,
      passed: e.passed,
      evidence: e.evidence,
      ...(e.flag === undefined ? {} : { flagged: true }),
    })),
  }));
  const evaluation: Evaluation = {
    samples: input.samples,
    cases: toScoringCases(globalChecks(experiment), [...input.cases]),
    outputs: input.generations.map((g) => ({
      caseId: g.caseId,
      sample: g.sample,
      ok: g.ok,
      text: g.text,
      ...(g.toolCalls === undefined ? {} : { toolCalls: g.toolCalls }),
      ...(g.error === undefined ? {} : { error: g.error }),
    })),
    checks: input.checks,
    ...(rubric && input.judged
      ? {
          judge: {
            criteria: rubric.criteria.map((c) => ({ key: c.key, weight: c.weight })),
            scores: (judge?.perOutput ?? []).map((o) => ({
              caseId: o.caseId,
              sample: o.sample,
              criteria: o.criteria,
              reasoning: o.reasoning,
              ...(o.items === undefined ? {} : { items: o.items }),
            })),
            ...(judge?.panel === undefined
              ? {}
              : {
                  panel: panelRecord(
                    judge.panel,
                    rubric.criteria.map((c) => c.key),
                  ),
                }),
          },
        }
      : {}),
    gradings,
    weights: experiment.config.scoring.weights,
  };
  return {
    evaluation,
    scores: {
      train: scoreSplit(evaluation, 'train'),
      holdout: scoreSplit(evaluation, 'holdout'),
      all: scoreSplit(evaluation, 'all'),
      ...(input.cases.some((c) => c.split === 'test') ? { test: scoreSplit(evaluation, 'test') } : {}),
    },
  };
}
