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
import { readTrainAgentActivity } from './agent-records.js';
import {
  type AttemptSummary,
  buildMutatorFeedback,
  type CaseResult,
  partsContextOf,
} from './build-feedback.js';
import { trainCaseResults } from './case-results.js';
import type { IncumbentView } from './incumbent.js';
import type { ParseProposalOptions } from './parse-proposal.js';
import type { Strategy } from './strategy.js';

export async function feedbackFor(
  experiment: Experiment,
  runDir: string,
  view: IncumbentView,
  history: readonly AttemptSummary[],
  mode: Strategy,
): Promise<MutatorFeedback> {
  const { search } = experiment.config;
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
    trainCases: await trainCasesOf(experiment, runDir, view),
    history,
    // The history shown is the newest attempts; older ones are listed by hypothesis alone.
    tried: history.map((a) => a.hypothesis),
    guidance: search.guidance,
    strategy: mode,
    maxGrowth: search.max_growth,
  });
}

/**
 * The view's per-case train results; in an agent experiment with what the agent did in each
 * (its records under the view's candidate folder), rebuilt from the record on every call, so a
 * resumed run tells the mutator what it was told before.
 */
export async function trainCasesOf(
  experiment: Experiment,
  runDir: string,
  view: IncumbentView,
): Promise<CaseResult[]> {
  const vars = new Map(experiment.cases.map((c) => [c.id, c.vars]));
  const agent =
    experiment.agent === undefined ? undefined : await readTrainAgentActivity(runDir, view, view.evaluation);
  return trainCaseResults(view.evaluation, view.trainScore, vars, agent);
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
