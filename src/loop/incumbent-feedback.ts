/**
 * What the mutator is shown about the prompt it revises, built in one place for both searches:
 * greedy revises the incumbent, pareto each candidate's parent (docs/design/pareto-search.md) — the
 * same feedback shape over a different prompt and a different history of attempts.
 */
import { hasSeveralParts } from '../experiment/part-texts.js';
import { findPlaceholders } from '../experiment/template.js';
import type { Experiment } from '../experiment/types.js';
import type { MutatorFeedback } from '../protocol/mutation.js';
import { attributorFor } from './attribute-failure.js';
import { type AttemptSummary, buildMutatorFeedback, partsContextOf } from './build-feedback.js';
import { trainCaseResults } from './case-results.js';
import type { IncumbentView } from './incumbent.js';
import type { ParseProposalOptions } from './parse-proposal.js';
import type { Strategy } from './strategy.js';

export function feedbackFor(
  experiment: Experiment,
  view: IncumbentView,
  history: readonly AttemptSummary[],
  mode: Strategy,
): MutatorFeedback {
  const { search } = experiment.config;
  const vars = new Map(experiment.cases.map((c) => [c.id, c.vars]));
  const parts = partsContextOf(experiment.shape);
  return buildMutatorFeedback({
    ...(parts ? { parts } : {}),
    ...(hasSeveralParts(experiment.shape) ? { attribute: attributorFor(experiment, view.prompt) } : {}),
    incumbent: {
      prompt: view.prompt,
      score: {
        total: view.trainScore.total ?? 0,
        ...optional('checks', view.trainScore.checks),
        ...optional('judge', view.trainScore.judge),
        ...optional('expectations', view.trainScore.expectations),
      },
      criteria: view.trainScore.criteria,
    },
    trainCases: trainCaseResults(view.evaluation, view.trainScore, vars),
    history,
    guidance: search.guidance,
    strategy: mode,
    maxGrowth: search.max_growth,
  });
}

/** Which parts a proposal may change and which are fixed; undefined for a path prompt. */
export function proposalPartsOf(experiment: Experiment): ParseProposalOptions['parts'] | undefined {
  const parts = partsContextOf(experiment.shape);
  if (!parts) return undefined;
  return {
    optimised: parts.optimised.map((p) => p.name),
    fixed: parts.fixed.map((p) => p.name),
    placeholders: experiment.shape.parts.flatMap((p) => findPlaceholders(p.text)),
  };
}

function optional<K extends string>(key: K, value: number | undefined): Partial<Record<K, number>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, number>);
}
