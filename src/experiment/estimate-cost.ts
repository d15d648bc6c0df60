/**
 * A rough cost estimate before a run: tokens from text lengths (~4 characters per token)
 * and each role's max_tokens as the output size, priced with the built-in table or the
 * entry's own `price:`. It is an upper-leaning guess for budgeting, never a bill; a role
 * without a known price makes the total unknown instead of a wrong number.
 *
 * The night (docs/design/cost-engine.md) is estimated four ways: interactive, with the stable
 * prefix of each role's calls served by the provider's prompt cache (one write per evaluation,
 * reads after, when it reaches the provider's minimum), with generator, judge and grader calls
 * through the batch API at its discount, and with both. Every way counts the same calls: retests,
 * drift anchors and screening (every iteration at its most).
 */
import { batchPriceFactor, cacheMinimumTokens } from '../providers/discounts.js';
import { costOf, estimatePrice } from '../providers/prices.js';
import { GRADER_SYSTEM_PROMPT } from '../grader/grader-prompt.js';
import { JUDGE_SYSTEM_PROMPT } from '../judge/judge-prompt.js';
import type { ModelEntry } from './schema.js';
import { type CallCounts, type RoleCounts, times } from './count-calls.js';
import { entryLabel, judgeMembers, roleModels } from './judge-panel.js';
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
  /** Of `input`: the prefix every call of the role repeats (instructions, rubric, system prompt). */
  stable?: number;
}

/** The four ways a night can be billed (docs/design/cost-engine.md). */
export const NIGHT_WAYS = ['interactive', 'caching', 'batch', 'batchAndCaching'] as const;
export type NightWay = (typeof NIGHT_WAYS)[number];

/** A whole run's USD each way; null when some role's price is unknown. */
export type NightEstimate = Record<NightWay, number> | null;

export interface RoleCost {
  role: Role;
  /** Tokens for one call, averaged over the calls of one evaluation. */
  perCall: RoleTokens;
  /** USD for one iteration; null when the price is unknown. */
  perIterationUsd: number | null;
  /** Why there is no number, when there is none. */
  unknownBecause?: string;
  /** The model with no price behind `unknownBecause`, and the key that would give it one. */
  unpriced?: { model: string; keyPath: string };
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
  /** The whole run (as `totalUsd`) interactive, with prompt caching, through the batch API, with both. */
  night: NightEstimate;
}

export function tokensOf(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/**
 * One call's USD for `entry` billed `way`. Caching: the stable prefix is written once per
 * evaluation (`perEvaluation` calls) and read by the others, when it reaches the provider's
 * minimum. Batch: the provider's discount, for every role but the mutator (it stays interactive).
 */
function callUsd(
  price: Parameters<typeof costOf>[0],
  entry: ModelEntry,
  role: Role,
  tokens: RoleTokens,
  perEvaluation: number,
  way: NightWay,
): number {
  const minimum = cacheMinimumTokens(entry);
  const stable = tokens.stable ?? 0;
  const cached =
    (way === 'caching' || way === 'batchAndCaching') &&
    minimum !== null &&
    stable >= minimum &&
    perEvaluation > 1;
  const calls = Math.max(1, perEvaluation);
  const usd = costOf(price, {
    inputTokens: tokens.input,
    outputTokens: tokens.output,
    ...(cached ? { cacheWriteTokens: stable / calls, cacheReadTokens: (stable * (calls - 1)) / calls } : {}),
  });
  const factor = batchPriceFactor(entry);
  const batched = (way === 'batch' || way === 'batchAndCaching') && role !== 'mutator' && factor !== null;
  return batched ? usd * factor : usd;
}

/**
 * The run's one warning about money it cannot count: the model entries with no price (none in
 * the built-in table, no `price:`), whose calls the run records as unpriced and leaves out of
 * `budget.usd`. A program's own calls are never counted, so programs are not named here.
 */
export function unpricedWarning(experiment: Experiment): string | undefined {
  const unpriced: { label: string; roles: Role[]; keyPath: string }[] = [];
  for (const { role, entry, path } of roleModels(experiment.models)) {
    if (estimatePrice(entry) !== undefined) continue;
    const label = entryLabel(entry);
    const known = unpriced.find((u) => u.label === label);
    if (known) known.roles.push(role);
    else unpriced.push({ label, roles: [role], keyPath: formatKeyPath(path) });
  }
  if (unpriced.length === 0) return undefined;
  const named = unpriced.map((u) => `${u.label} (${[...new Set(u.roles)].join(', ')})`).join('; ');
  return `no price for ${named}: its calls are recorded as unpriced and do not count toward budget.usd; set ${unpriced[0]?.keyPath}.price to count them`;
}

export function estimateCost(experiment: Experiment, calls: CallCounts): CostEstimate {
  const tokens = estimateTokens(experiment);
  const roles: RoleCost[] = [];
  /** USD of one call per role, each way; null when its price is unknown. */
  const perCallWays: Partial<Record<Role, Record<NightWay, number> | null>> = {};
  for (const role of ROLES) {
    const config = experiment.models[role] as JudgeConfig | undefined;
    const count = calls.perIteration[role];
    if (config === undefined) continue;
    const callTokens = tokens[role];
    const members = judgeMembers(config);
    const unknown = (because: string, unpriced: RoleCost['unpriced']) => {
      roles.push({ role, perCall: callTokens, perIterationUsd: null, unknownBecause: because, unpriced });
      perCallWays[role] = null;
    };
    // A program's own model calls are neither counted here nor toward budget.usd: the role costs
    // what its model members cost (nothing when it has none), and the note says so.
    const programs = members.filter(isProgramEntry).length;
    const programNote =
      programs === 0
        ? undefined
        : members.length > 1
          ? `${role}: ${programs === 1 ? 'a member of the panel is an external program' : `${programs} members of the panel are external programs`}; its own model calls are not counted, here or in budget.usd`
          : `${role} is an external program; its own model calls are not counted, here or in budget.usd`;
    // An agent case is a conversation of up to max_turns calls whose size its CLI decides: no
    // honest figure before a case has run (the budget then uses the measured cost, agent-runs.md).
    if (role === 'generator' && experiment.agent !== undefined) {
      unknown(
        `an agent case makes up to ${experiment.agent.limits.maxTurns} model calls, each resending the conversation so far: its cost is measured from the baseline on, and budget.usd holds each call's worst case meanwhile`,
        undefined,
      );
      continue;
    }
    const priced = roleModels({ [role]: config }).map((m) => ({ ...m, estimated: estimatePrice(m.entry) }));
    const unpriced = priced.find((m) => m.estimated === undefined);
    if (unpriced !== undefined) {
      const { entry } = unpriced;
      const keyPath = `${formatKeyPath(unpriced.path)}.price`;
      unknown(`no price for ${entryLabel(entry)}; set ${keyPath}`, { model: entryLabel(entry), keyPath });
      continue;
    }
    // A panel's call: the members' prices, each weighted by the calls it makes (its samples).
    const ways = Object.fromEntries(NIGHT_WAYS.map((way) => [way, 0])) as Record<NightWay, number>;
    let weight = 0;
    for (const { entry, estimated } of priced) {
      if (estimated === undefined) continue;
      const samples = role === 'judge' ? (entry.samples ?? 1) : 1;
      for (const way of NIGHT_WAYS)
        ways[way] +=
          samples * callUsd(estimated.price, entry, role, callTokens, calls.perEvaluation[role], way);
      weight += samples;
    }
    for (const way of NIGHT_WAYS) ways[way] = weight === 0 ? 0 : ways[way] / weight;
    const one = ways.interactive;
    const priceNote = priced.find((m) => m.estimated?.note !== undefined)?.estimated?.note;
    const note = [programNote, priceNote].filter((n) => n !== undefined).join('; ') || undefined;
    roles.push({
      role,
      perCall: callTokens,
      perIterationUsd: one * count,
      ...(note === undefined ? {} : { note }),
    });
    perCallWays[role] = ways;
  }
  // As version 1 did: an evaluation's cost is unknown when any configured role's price is.
  const usdOf = (counts: RoleCounts, way: NightWay = 'interactive'): number | null => {
    const parts = Object.entries(perCallWays).map(([role, one]) =>
      one === null ? null : one[way] * counts[role as Role],
    );
    return parts.some((p) => p === null) ? null : parts.reduce<number>((a, p) => a + (p ?? 0), 0);
  };
  const night = wholeRun(calls, usdOf);
  const perIterationUsd = roles.some((r) => r.perIterationUsd === null)
    ? null
    : roles.reduce((a, r) => a + (r.perIterationUsd ?? 0), 0);
  const interactive = night?.interactive ?? null;
  const parts = wholeRunParts(calls, (counts) => usdOf(counts));
  const knownPerIterationUsd = roles.reduce((a, r) => a + (r.perIterationUsd ?? 0), 0);
  return {
    roles,
    perIterationUsd,
    baselineUsd: parts.baselineUsd,
    finalUsd: parts.finalUsd,
    totalUsd: perIterationUsd === null ? null : interactive,
    knownPerIterationUsd,
    night: perIterationUsd === null ? null : night,
  };
}

type UsdOf = (counts: RoleCounts) => number | null;

/** Baseline (with its anchor reading), the final check and the whole run, priced by `usdOf`. */
function wholeRunParts(calls: CallCounts, usdOf: UsdOf) {
  const { iterations, driftChecks } = calls.schedule;
  // Drift anchors (docs/design/judge-reliability.md): one reading with the baseline, one at each
  // drift check the iterations' plans hold.
  const anchors = calls.anchors;
  const readingUsd = anchors === null ? 0 : usdOf(anchors.perReading);
  const checks = anchors === null ? 0 : driftChecks;
  const evaluationsUsd = usdOf(times(calls.perEvaluation, calls.baselineEvaluations));
  const baselineUsd = evaluationsUsd === null || readingUsd === null ? null : evaluationsUsd + readingUsd;
  const finalUsd = usdOf(times(calls.perFinalEvaluation, calls.finalEvaluations));
  const perIterationUsd = usdOf(calls.perIteration);
  const totalUsd =
    perIterationUsd === null || baselineUsd === null || finalUsd === null || readingUsd === null
      ? null
      : baselineUsd + iterations * perIterationUsd + checks * readingUsd + finalUsd;
  return { baselineUsd, finalUsd, totalUsd };
}

/** The whole run each way (docs/design/cost-engine.md); null when some role's price is unknown. */
function wholeRun(
  calls: CallCounts,
  usdOf: (counts: RoleCounts, way: NightWay) => number | null,
): NightEstimate {
  const ways = NIGHT_WAYS.map(
    (way) => [way, wholeRunParts(calls, (counts) => usdOf(counts, way)).totalUsd] as const,
  );
  if (ways.some(([, usd]) => usd === null)) return null;
  return Object.fromEntries(ways) as Record<NightWay, number>;
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
  const generatorInput = Math.ceil(rendered.reduce((a, b) => a + b.total, 0) / Math.max(1, cases.length));
  const generatorStable = Math.min(generatorInput, rendered[0]?.stable ?? 0);

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
  const judgeInput = JUDGE_OVERHEAD_TOKENS + rubricTokens + generatorOutput;
  return {
    generator: { input: generatorInput, output: generatorOutput, stable: generatorStable },
    // The stable prefixes the runner marks (docs/design/cost-engine.md): the judge's instructions and rubric, the
    // grader's instructions.
    judge: {
      input: judgeInput,
      output: judgeOutput,
      stable: Math.min(judgeInput, tokensOf(JUDGE_SYSTEM_PROMPT) + rubricTokens),
    },
    grader: {
      input: graderInput,
      output: graderOutput,
      stable: Math.min(graderInput, tokensOf(GRADER_SYSTEM_PROMPT)),
    },
    mutator: { input: mutatorInput, output: mutatorOutput },
  };
}

/**
 * Tokens of one case's request (system prompt, every message, the output schema and the tools)
 * and of its stable prefix: the system prompt and the first message's lead.
 */
function requestTokens(experiment: Experiment, testCase: Case): { total: number; stable: number } {
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
  const lead = request.cacheable?.lead ?? 0;
  const stable = tokensOf(request.system ?? '') + tokensOf(request.messages[0]?.content.slice(0, lead) ?? '');
  return { total: pieces.reduce((a, text) => a + tokensOf(text), 0), stable };
}
