/**
 * What `validate` shows before a run: what will be evaluated, by which models, how many
 * calls each iteration makes, and roughly what it costs. Plain data, so `--json` prints it
 * as is and src/ui/format-plan.ts renders it for people.
 */
import type { Problem } from '../errors.js';
import { globalChecks } from '../checks/output-schema-gate.js';
import { checkName } from '../checks/registry.js';
import { type CallCounts, countCalls } from './count-calls.js';
import { type CostEstimate, estimateCost } from './estimate-cost.js';
import { groupCount } from './case-groups.js';
import { describeAcceptance, type NoiseSource, type PlanAcceptance } from './plan-acceptance.js';
import { describeModelOrigins, type ModelOrigin } from './resolve-models.js';
import { entryLabel, isPanel, judgeMembers } from './judge-panel.js';
import { isProgramEntry } from './program-entry.js';
import { ROLES, type Role } from './roles.js';
import { findPlaceholders } from './template.js';
import type { Aggregate } from './schema.js';
import type { Experiment, PromptShape } from './types.js';

export interface PlanModel {
  role: Role;
  /** `anthropic/claude-sonnet-4-5`, `sim`, or `program: node my-judge.mjs`. */
  label: string;
  provider: string | null;
  model: string | null;
  origin: ModelOrigin;
  simulated: boolean;
  /**
   * A judge panel's member (docs/design/judge-reliability.md): its place, the panel's size and how
   * scores are aggregated.
   */
  panel?: { member: number; of: number; aggregate: Aggregate };
}

export interface Plan {
  /** `agentMaxTurns`: an agent experiment's turn limit per case (docs/design/agent-runs.md). */
  experiment: { name: string; description: string; file: string; agentMaxTurns?: number };
  prompt: {
    path: string;
    chars: number;
    placeholders: string[];
    /** Prompt parts (docs/design/prompt-shapes.md) only: the optimised part (several: their names joined by ", "), the fixed ones, the schema file, the tool names. */
    shape?: { part: string; fixed: string[]; output: string | null; tools: string[] };
  };
  /**
   * `test`: the sealed cases (docs/design/paired-acceptance.md), scored only by the final evaluation and
   * `eval --split test`.
   */
  cases: {
    path: string;
    total: number;
    train: string[];
    holdout: string[];
    test: string[];
    withExpectations: number;
  };
  checks: { global: string[]; perCase: number; casesWithChecks: number; gates: number };
  /** `items`: a checklist criterion's yes/no items (docs/design/judge-reliability.md). */
  rubric: {
    path: string;
    criteria: { key: string; title: string; weight: number; items?: string[] }[];
  } | null;
  models: PlanModel[];
  calls: CallCounts;
  cost: CostEstimate;
  search: {
    candidates: number;
    samples: number;
    holdout: number;
    test: number;
    noiseRepeats: number;
    confirm: boolean;
  };
  /** The rule that keeps or discards, and under paired the smallest gain it can detect. */
  acceptance: PlanAcceptance;
  budget: { iterations: number; hours: number; usd: number | null; patience: number; target: number | null };
  warnings: Problem[];
  /**
   * How the judge and grader are isolated (docs/design/isolation.md), when there are any; `validate` adds it (it
   * probes bwrap).
   */
  isolation?: string;
}

/** `measured`: the per-case noise of the experiment's latest run, when `validate` found one. */
export function buildPlan(experiment: Experiment, measured: NoiseSource | null = null): Plan {
  const { config, cases } = experiment;
  const calls = countCalls(experiment);
  const globals = globalChecks(experiment);
  const caseChecks = cases.flatMap((c) => c.checks);
  const needs = {
    hasRubric: experiment.rubric !== undefined,
    hasExpectations: cases.some((c) => c.expectations.length > 0),
  };
  const origins = describeModelOrigins(config.models, needs);
  const models: PlanModel[] = [];
  for (const role of ROLES) {
    const config = experiment.models[role];
    if (config === undefined) continue;
    const origin = origins[role] ?? 'configured';
    judgeMembers(config).forEach((entry, member, all) => {
      const panel = isPanel(config) ? { panel: { member, of: all.length, aggregate: config.aggregate } } : {};
      if (isProgramEntry(entry)) {
        models.push({
          role,
          label: entryLabel(entry),
          provider: null,
          model: null,
          origin,
          simulated: false,
          ...panel,
        });
      } else {
        models.push({
          role,
          label: entryLabel(entry),
          provider: entry.provider,
          model: entry.model ?? null,
          origin,
          simulated: entry.provider === 'sim',
          ...panel,
        });
      }
    });
  }
  return {
    experiment: {
      name: experiment.name,
      description: experiment.description,
      file: experiment.file,
      ...(experiment.agent === undefined ? {} : { agentMaxTurns: experiment.agent.limits.maxTurns }),
    },
    prompt: {
      path: experiment.promptPath,
      chars: [...experiment.prompt].length,
      placeholders: findPlaceholders(experiment.prompt),
      ...shapeOf(experiment.shape),
    },
    cases: {
      path: experiment.casesPath,
      total: cases.length,
      train: cases.filter((c) => c.split === 'train').map((c) => c.id),
      holdout: cases.filter((c) => c.split === 'holdout').map((c) => c.id),
      test: cases.filter((c) => c.split === 'test').map((c) => c.id),
      withExpectations: cases.filter((c) => c.expectations.length > 0).length,
    },
    checks: {
      global: globals.map(checkName),
      perCase: caseChecks.length,
      casesWithChecks: cases.filter((c) => c.checks.length > 0).length,
      gates: [...globals, ...caseChecks].filter((c) => c.gate === true).length,
    },
    rubric: experiment.rubric
      ? {
          path: experiment.rubric.path,
          criteria: experiment.rubric.criteria.map(({ key, title, weight, items }) => ({
            key,
            title,
            weight,
            ...(items === undefined ? {} : { items }),
          })),
        }
      : null,
    models,
    calls,
    cost: estimateCost(experiment, calls),
    search: {
      candidates: config.search.candidates,
      samples: config.search.samples,
      holdout: config.search.holdout,
      test: config.search.test,
      noiseRepeats: config.search.noise_repeats,
      confirm: config.search.confirm,
    },
    acceptance: describeAcceptance(
      config.search,
      cases.filter((c) => c.split === 'train').length,
      measured,
      groupCount(cases, 'train'),
    ),
    budget: {
      iterations: config.budget.iterations,
      hours: config.budget.hours,
      usd: config.budget.usd ?? null,
      patience: config.budget.patience,
      target: config.budget.target ?? null,
    },
    warnings: experiment.warnings,
  };
}

function shapeOf(shape: PromptShape): Pick<Plan['prompt'], 'shape'> {
  const optimised = shape.parts.filter((p) => p.optimise).map((p) => p.name);
  if (optimised.length === 0 || (optimised[0] === 'prompt' && !shape.output && !shape.tools)) return {};
  return {
    shape: {
      part: optimised.join(', '),
      fixed: shape.parts.filter((p) => !p.optimise).map((p) => p.name),
      output: shape.output?.path ?? null,
      tools: shape.tools?.definitions.map((t) => t.name) ?? [],
    },
  };
}
