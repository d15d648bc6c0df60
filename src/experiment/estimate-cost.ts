/**
 * A rough cost estimate before a run: tokens from text lengths (~4 characters per token)
 * and each role's max_tokens as the output size, priced with the built-in table or the
 * entry's own `price:`. It is an upper-leaning guess for budgeting, never a bill; a role
 * without a known price makes the total unknown instead of a wrong number.
 */
import { costOf, estimatePrice } from '../providers/prices.js';
import { type CallCounts, type RoleCounts, times } from './count-calls.js';
import { judgeMembers, roleModels } from './judge-panel.js';
import { formatKeyPath } from './key-path.js';
import { isProgramEntry } from './program-entry.js';
import { ROLES, type Role } from './roles.js';
import type { JudgeConfig } from './schema.js';
import { type RenderedRequest, renderRequest } from './render-request.js';
import type { Case, Experiment } from './types.js';

const CHARS_PER_TOKEN = 4;
/** What the Anthropic adapter sends when max_tokens is unset; used for every role without one. */
export const ASSUMED_MAX_TOKENS = 1024;
/** Our judge/grader/mutator instructions and response formats, roughly. */
const JUDGE_OVERHEAD_TOKENS = 400;
const JUDGE_REPLY_TOKENS = 300;
const GRADER_OVERHEAD_TOKENS = 700;
const GRADER_REPLY_TOKENS_PER_EXPECTATION = 150;
const MUTATOR_OVERHEAD_TOKENS = 1500;
/** The mutator sees a few failing train cases with output excerpts. */
const MUTATOR_CASE_TOKENS = 250;
const MUTATOR_MAX_CASES = 4;

export interface RoleTokens {
  input: number;
  output: number;
}

export interface RoleCost {
  role: Role;
  /** Tokens for one call, averaged over the calls of one evaluation. */
  perCall: RoleTokens;
  /** USD for one iteration; null when the price is unknown. */
  perIterationUsd: number | null;
  /** Why there is no number, when there is none. */
  unknownBecause?: string;
  /** What the number assumes, when that is worth saying (a CLI's own cost reporting). */
  note?: string;
}

export interface CostEstimate {
  roles: RoleCost[];
  /** USD for one iteration, at most (see count-calls.ts); null when some role's price is unknown. */
  perIterationUsd: number | null;
  baselineUsd: number | null;
  finalUsd: number | null;
  /** Baseline (with its anchor reading) + iterations × per-iteration + drift checks + final check. */
  totalUsd: number | null;
  /** Sum over the roles whose price is known (a lower bound when totalUsd is null). */
  knownPerIterationUsd: number;
}

export function tokensOf(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

export function estimateCost(experiment: Experiment, calls: CallCounts): CostEstimate {
  const tokens = estimateTokens(experiment);
  const roles: RoleCost[] = [];
  /** USD of one call per role; null when its price is unknown. */
  const perCall: Partial<Record<Role, number | null>> = {};
  for (const role of ROLES) {
    const config = experiment.models[role] as JudgeConfig | undefined;
    const count = calls.perIteration[role];
    if (config === undefined) continue;
    const callTokens = tokens[role];
    const members = judgeMembers(config);
    const unknown = (because: string) => {
      roles.push({ role, perCall: callTokens, perIterationUsd: null, unknownBecause: because });
      perCall[role] = null;
    };
    if (members.some(isProgramEntry)) {
      unknown(
        members.length > 1
          ? `a member of the ${role} panel is an external program; its model calls are not counted`
          : `${role} is an external program; its model calls are not counted`,
      );
      continue;
    }
    const priced = roleModels({ [role]: config }).map((m) => ({ ...m, estimated: estimatePrice(m.entry) }));
    const unpriced = priced.find((m) => m.estimated === undefined);
    if (unpriced !== undefined) {
      const { entry } = unpriced;
      unknown(
        `no price for ${entry.provider}${entry.model ? `/${entry.model}` : ''}; set ${formatKeyPath(unpriced.path)}.price`,
      );
      continue;
    }
    // A panel's call: the members' prices, each weighted by the calls it makes (its samples).
    let usd = 0;
    let weight = 0;
    for (const { entry, estimated } of priced) {
      if (estimated === undefined) continue;
      const samples = role === 'judge' ? (entry.samples ?? 1) : 1;
      usd +=
        samples * costOf(estimated.price, { inputTokens: callTokens.input, outputTokens: callTokens.output });
      weight += samples;
    }
    const one = weight === 0 ? 0 : usd / weight;
    const note = priced.find((m) => m.estimated?.note !== undefined)?.estimated?.note;
    roles.push({
      role,
      perCall: callTokens,
      perIterationUsd: one * count,
      ...(note === undefined ? {} : { note }),
    });
    perCall[role] = one;
  }
  // As version 1 did: an evaluation's cost is unknown when any configured role's price is.
  const usdOf = (counts: RoleCounts): number | null => {
    const parts = Object.entries(perCall).map(([role, one]) =>
      one === null ? null : one * counts[role as Role],
    );
    return parts.some((p) => p === null) ? null : parts.reduce<number>((a, p) => a + (p ?? 0), 0);
  };
  const perIterationUsd = roles.some((r) => r.perIterationUsd === null)
    ? null
    : roles.reduce((a, r) => a + (r.perIterationUsd ?? 0), 0);
  const iterations = experiment.config.budget.iterations;
  // Drift anchors (SPEC 15): one reading with the baseline, one every `every` iterations.
  const anchors = calls.anchors;
  const readingUsd = anchors === null ? 0 : usdOf(anchors.perReading);
  const checks = anchors === null ? 0 : Math.floor(iterations / anchors.every);
  const evaluationsUsd = usdOf(times(calls.perEvaluation, calls.baselineEvaluations));
  const baselineUsd = evaluationsUsd === null || readingUsd === null ? null : evaluationsUsd + readingUsd;
  const finalUsd = usdOf(times(calls.perFinalEvaluation, calls.finalEvaluations));
  const totalUsd =
    perIterationUsd === null || baselineUsd === null || finalUsd === null || readingUsd === null
      ? null
      : baselineUsd + iterations * perIterationUsd + checks * readingUsd + finalUsd;
  const knownPerIterationUsd = roles.reduce((a, r) => a + (r.perIterationUsd ?? 0), 0);
  return { roles, perIterationUsd, baselineUsd, finalUsd, totalUsd, knownPerIterationUsd };
}

/** A panel's largest, so the estimate leans high. */
function maxTokensOf(config: JudgeConfig | undefined): number {
  if (config === undefined) return ASSUMED_MAX_TOKENS;
  return Math.max(
    ...judgeMembers(config).map((entry) =>
      !isProgramEntry(entry) && entry.max_tokens !== undefined ? entry.max_tokens : ASSUMED_MAX_TOKENS,
    ),
  );
}

/** Average tokens of one call per role. */
export function estimateTokens(experiment: Experiment): Record<Role, RoleTokens> {
  const { models, cases, prompt } = experiment;
  const generatorOutput = maxTokensOf(models.generator);
  const rendered = cases.map((c) => requestTokens(experiment, c));
  const generatorInput = Math.ceil(rendered.reduce((a, b) => a + b, 0) / Math.max(1, cases.length));

  const rubricTokens = experiment.rubric ? tokensOf(experiment.rubric.text) : 0;
  const judgeOutput = Math.min(JUDGE_REPLY_TOKENS, maxTokensOf(models.judge));

  const graded = cases.filter((c) => c.expectations.length > 0);
  const samples = experiment.config.search.samples;
  const graderInput = graded.length
    ? Math.ceil(
        graded.reduce(
          (a, c) =>
            a +
            tokensOf(c.expectations.join('\n')) +
            tokensOf(JSON.stringify(c.vars)) +
            samples * generatorOutput,
          0,
        ) / graded.length,
      ) + GRADER_OVERHEAD_TOKENS
    : 0;
  const expectationsPerCase = graded.length
    ? graded.reduce((a, c) => a + c.expectations.length, 0) / graded.length
    : 0;
  const graderOutput = Math.min(
    Math.ceil(200 + GRADER_REPLY_TOKENS_PER_EXPECTATION * expectationsPerCase),
    maxTokensOf(models.grader),
  );

  const promptTokens = tokensOf(prompt);
  const fixedTokens = experiment.shape.parts.reduce((a, p) => a + (p.optimise ? 0 : tokensOf(p.text)), 0);
  const trainCases = cases.filter((c) => c.split === 'train').length;
  const mutatorInput =
    MUTATOR_OVERHEAD_TOKENS +
    promptTokens +
    fixedTokens +
    Math.min(MUTATOR_MAX_CASES, trainCases) * MUTATOR_CASE_TOKENS;
  const mutatorOutput = Math.min(
    maxTokensOf(models.mutator),
    Math.ceil(promptTokens * experiment.config.search.max_growth) + 200,
  );
  return {
    generator: { input: generatorInput, output: generatorOutput },
    judge: { input: JUDGE_OVERHEAD_TOKENS + rubricTokens + generatorOutput, output: judgeOutput },
    grader: { input: graderInput, output: graderOutput },
    mutator: { input: mutatorInput, output: mutatorOutput },
  };
}

/** Tokens of one case's request: system prompt, every message, the output schema and the tools. */
function requestTokens(experiment: Experiment, testCase: Case): number {
  const { system } = experiment.models.generator;
  let request: RenderedRequest;
  try {
    request = renderRequest({
      shape: experiment.shape,
      prompt: experiment.prompt,
      testCase,
      ...(system === undefined ? {} : { system }),
    });
  } catch {
    request = {
      ...(system === undefined ? {} : { system }),
      messages: [{ role: 'user', content: experiment.prompt }],
    };
  }
  const pieces = [
    request.system ?? '',
    ...request.messages.map((m) => m.content),
    request.output ? JSON.stringify(request.output.schema) : '',
    request.tools ? JSON.stringify(request.tools) : '',
  ];
  return pieces.reduce((a, text) => a + tokensOf(text), 0);
}
