/**
 * What the mutator learns about the incumbent: its train scores, the train
 * cases that fail most, how often each check fails, the attempts so far and the user's
 * guidance, as the shared `MutatorFeedback` shape. Under the pareto search
 * (docs/design/pareto-search.md) the same shape describes the parent being revised, with traces:
 * the failing cases of the iteration's minibatch with whole outputs and reasons (cut only past
 * `traceChars`), and the attempts of its lineage (src/search/parent-feedback.ts builds that input).
 * Holdout and test cases never reach the mutator: this function takes train results only and throws
 * when handed any other case, so a wiring mistake fails loudly instead of leaking. Every field is
 * copied explicitly, so extra fields on the inputs (a holdout score, say) cannot slip through.
 */
import { splitPromptText } from '../experiment/part-texts.js';
import { extractKeepBlocks, findPlaceholders } from '../experiment/template.js';
import type { PromptPart, PromptShape, Split } from '../experiment/types.js';
import type { Attribute } from './attribute-failure.js';
import { MUTATOR_FEEDBACK_FORMAT, type MutatorFeedback } from '../protocol/mutation.js';
import type { Strategy } from './strategy.js';
import { type AgentActivity, digestWithinRequest } from './agent-digest.js';
import { countChars, cutMarked, cutText } from './text.js';

/** Train-split score of a prompt: the total and each signal present. */
export interface SignalScores {
  total: number;
  checks?: number;
  judge?: number;
  expectations?: number;
}

export interface CheckOutcome {
  name: string;
  type: string;
  pass: boolean;
  reason: string;
}

export interface JudgeOutcome {
  /** Criterion scores on the 1–5 scale (means when the judge sampled several times). */
  criteria: Record<string, number>;
  reasoning: string;
}

export interface ExpectationOutcome {
  text: string;
  passed: boolean;
  evidence: string;
}

/** One generation of a case and what the checks, the judge and the grader said about it. */
export interface SampleResult {
  /** null when the generation failed. */
  output: string | null;
  error?: string;
  checks: CheckOutcome[];
  judge: JudgeOutcome | null;
  expectations: ExpectationOutcome[];
  /** Agent experiments: what the agent did in this sample, from its agent.json (train cases only). */
  agent?: AgentActivity;
}

export interface CaseResult {
  id: string;
  /** Only `train` may reach the mutator; any other split makes buildMutatorFeedback throw. */
  split: Split;
  vars: Record<string, string>;
  /** The case's own score, 0..1 (the same weighting as the candidate score). */
  score: number;
  samples: SampleResult[];
}

export interface AttemptSummary {
  iteration: number;
  status: string;
  /** Train score of the candidate; null when it never got one (error, duplicate). */
  trainScore: number | null;
  hypothesis: string;
  /**
   * Pareto (docs/design/pareto-search.md): the candidate within its iteration, the member(s) it was made from, the
   * member it became.
   */
  candidate?: number;
  parents?: string[];
  member?: string | null;
  /** Pareto: mean per-case train difference against its (first) parent; a screened-out one's on its minibatch. */
  delta?: number | null;
}

/**
 * Prompt parts (docs/design/prompt-shapes.md): which parts the mutator changes (in request order) and the fixed
 * ones around them.
 */
export interface PartsContext {
  optimised: { name: string; role: PromptPart['role'] }[];
  fixed: { name: string; role: PromptPart['role']; text: string }[];
}

export interface BuildFeedbackInput {
  incumbent: { prompt: string; score: SignalScores; criteria: Record<string, number> };
  /** Absent for a path prompt: the request is then as it was before prompt parts. */
  parts?: PartsContext;
  /** Several optimisable parts: the part each failing check most likely comes from (attribute-failure.ts). */
  attribute?: Attribute;
  trainCases: readonly CaseResult[];
  history: readonly AttemptSummary[];
  guidance: string;
  /** The mutation mode (focused or bold): written as both `mode` and, for older readers, `strategy`. */
  strategy: Strategy;
  maxGrowth: number;
  maxFailingCases?: number;
  excerptChars?: number;
  maxHistory?: number;
  /**
   * Every hypothesis tried in the run so far (every lineage), oldest first: those not in the
   * history shown become the feedback's `tried`.
   */
  tried?: readonly string[];
  /** Pareto: the member being revised (the `incumbent` above) and its ancestors, nearest first. */
  parent?: { member: string; ancestors: string[] };
  /** Failing cases only from these train cases (the iteration's minibatch), in any order. */
  failingFrom?: readonly string[];
  /**
   * Traces: outputs, check reasons, judge reasoning and grader evidence whole, cut only past
   * this many characters (the cut marked in the text); without it, short excerpts.
   */
  traceChars?: number;
}

const REASON_CHARS = 300;
const HYPOTHESIS_CHARS = 400;
/** At most this many of the run's other hypotheses are listed in `tried`, the newest. */
export const TRIED_HYPOTHESES = 24;
/** Each hypothesis in `tried` is cut at this many characters: its opening says what was done. */
export const TRIED_CHARS = 200;
const KEEP_OPEN = '<!-- keep -->';
const KEEP_CLOSE = '<!-- /keep -->';

export class HoldoutLeakError extends Error {
  constructor(caseId: string, split: Split = 'holdout') {
    super(
      `case "${caseId}" is a ${split} case and was passed to the mutator feedback; holdout and test cases never reach the mutator`,
    );
    this.name = 'HoldoutLeakError';
  }
}

/** The longest prompt a mutation may propose: `max_growth` × the incumbent's length. */
export function maxCharsFor(incumbent: string, maxGrowth: number): number {
  return Math.floor(maxGrowth * countChars(incumbent));
}

/** The parts context of a shape, or undefined for a path prompt (its one part is the prompt). */
export function partsContextOf(shape: PromptShape): PartsContext | undefined {
  const optimised = shape.parts.filter((p) => p.optimise).map((p) => ({ name: p.name, role: p.role }));
  if (optimised.length === 0 || optimised[0]?.name === 'prompt') return undefined;
  return {
    optimised,
    fixed: shape.parts.filter((p) => !p.optimise).map((p) => ({ name: p.name, role: p.role, text: p.text })),
  };
}

export function buildMutatorFeedback(input: BuildFeedbackInput): MutatorFeedback {
  for (const c of input.trainCases) if (c.split !== 'train') throw new HoldoutLeakError(c.id, c.split);
  const { prompt } = input.incumbent;
  const cut = cutterOf(input);
  const optimised = input.parts?.optimised ?? [];
  const several = optimised.length > 1;
  const attribute = several ? input.attribute : undefined;
  const history = summariseHistory(input.history, input.maxHistory ?? 12);
  const tried = triedElsewhere(input.tried ?? [], history);
  return {
    format: MUTATOR_FEEDBACK_FORMAT,
    strategy: input.strategy,
    mode: input.strategy,
    ...(input.parent
      ? { parent: { member: input.parent.member, ancestors: [...input.parent.ancestors] } }
      : {}),
    incumbent: {
      ...(optimised.length === 1 ? { part: (optimised[0] as { name: string }).name } : {}),
      prompt,
      chars: countChars(prompt),
      placeholders: findPlaceholders(prompt),
      keep_blocks: keepBlocksOf(prompt),
      score: copyScores(input.incumbent.score),
      criteria: { ...input.incumbent.criteria },
      ...(several ? { parts: describeParts(prompt, optimised, input.maxGrowth) } : {}),
    },
    ...(input.parts ? { fixed_parts: input.parts.fixed.map((p) => ({ ...p })) } : {}),
    max_chars: maxCharsFor(prompt, input.maxGrowth),
    ...(input.traceChars === undefined ? {} : { trace_chars: input.traceChars }),
    failing_cases: describeFailingCases(
      selectFailingCases(failingPool(input), input.maxFailingCases ?? 4),
      cut,
      attribute,
    ),
    check_failures: countCheckFailures(input.trainCases).map((c) =>
      attribute ? { ...c, part: attribute(c) } : c,
    ),
    history,
    ...(tried.length === 0 ? {} : { tried }),
    guidance: input.guidance,
  };
}

/**
 * The run's other attempts, newest first, each once and none already in `history`: the
 * hypotheses alone, bounded in number and length so a long run's request stays small.
 */
function triedElsewhere(all: readonly string[], history: MutatorFeedback['history']): string[] {
  const shown = new Set(history.map((a) => cutText(a.hypothesis, TRIED_CHARS)));
  const seen = new Set<string>();
  const tried: string[] = [];
  for (const hypothesis of [...all].reverse()) {
    const text = cutText(hypothesis, TRIED_CHARS);
    if (text.trim() === '' || shown.has(text) || seen.has(text)) continue;
    seen.add(text);
    tried.push(text);
    if (tried.length === TRIED_HYPOTHESES) break;
  }
  return tried;
}

/** How texts shown to the mutator are cut: short excerpts, or (traces) whole up to `traceChars`. */
interface Cutter {
  /** Outputs and var values. */
  text: (text: string) => string;
  /** Check reasons, judge reasoning, grader evidence, generation errors. */
  reason: (text: string) => string;
  traced: boolean;
}

function cutterOf(input: BuildFeedbackInput): Cutter {
  const { traceChars } = input;
  const excerptChars = input.excerptChars ?? 600;
  if (traceChars === undefined)
    return {
      text: (text) => cutText(text, excerptChars),
      reason: (text) => cutText(text, REASON_CHARS),
      traced: false,
    };
  const whole = (text: string) => cutMarked(text, traceChars);
  return { text: whole, reason: whole, traced: true };
}

/** The train cases failing cases are chosen from: the minibatch when one is named (each must be a train case given). */
function failingPool(input: BuildFeedbackInput): readonly CaseResult[] {
  if (input.failingFrom === undefined) return input.trainCases;
  const byId = new Map(input.trainCases.map((c) => [c.id, c]));
  return input.failingFrom.map((id) => {
    const found = byId.get(id);
    if (found === undefined)
      throw new Error(
        `minibatch case "${id}" is not among the train cases given to the mutator feedback; only train cases reach the mutator`,
      );
    return found;
  });
}

/** The keep blocks of a text, markers included, as the mutator is shown them. */
export function keepBlocksOf(text: string): string[] {
  return extractKeepBlocks(text).blocks.map((block) => `${KEEP_OPEN}${block}${KEEP_CLOSE}`);
}

/** Each optimisable part with its own rules: placeholders, keep blocks and growth hold per part. */
function describeParts(
  prompt: string,
  optimised: PartsContext['optimised'],
  maxGrowth: number,
): NonNullable<MutatorFeedback['incumbent']['parts']> {
  const texts = splitPromptText(
    prompt,
    optimised.map((p) => p.name),
  );
  return optimised.map(({ name, role }) => {
    const text = texts[name] as string;
    return {
      name,
      role,
      text,
      chars: countChars(text),
      placeholders: findPlaceholders(text),
      keep_blocks: keepBlocksOf(text),
      max_chars: maxCharsFor(text, maxGrowth),
    };
  });
}

function copyScores(score: SignalScores): MutatorFeedback['incumbent']['score'] {
  const copy: MutatorFeedback['incumbent']['score'] = { total: score.total };
  if (score.checks !== undefined) copy.checks = score.checks;
  if (score.judge !== undefined) copy.judge = score.judge;
  if (score.expectations !== undefined) copy.expectations = score.expectations;
  return copy;
}

/** Cases below a perfect score, lowest first (ties by id, so the request is stable). */
function selectFailingCases(cases: readonly CaseResult[], max: number): CaseResult[] {
  return cases
    .filter((c) => c.score < 1)
    .sort((a, b) => a.score - b.score || compareText(a.id, b.id))
    .slice(0, Math.max(0, max));
}

type FailingCase = MutatorFeedback['failing_cases'][number];

// One sample stands for the case, the worst one, so its output, failed checks, judge
// reasoning, grader evidence and agent digest all describe the same output.
function describeFailingCases(
  cases: readonly CaseResult[],
  cut: Cutter,
  attribute: Attribute | undefined,
): FailingCase[] {
  const worst = cases.map((c) => worstSample(c.samples));
  const digests = digestWithinRequest(
    worst.map((sample) => ({
      activity: sample?.agent,
      failed: {
        checks: (sample?.checks ?? []).filter((k) => !k.pass).map((k) => k.name),
        expectations: (sample?.expectations ?? []).filter((e) => !e.passed).map((e) => e.text),
      },
    })),
  );
  return cases.map((c, index) => {
    const digest = digests[index];
    return { ...describeCase(c, worst[index], cut, attribute), ...(digest ? { agent: digest } : {}) };
  });
}

function describeCase(
  c: CaseResult,
  sample: SampleResult | undefined,
  cut: Cutter,
  attribute: Attribute | undefined,
): FailingCase {
  return {
    case_id: c.id,
    vars: Object.fromEntries(Object.entries(c.vars).map(([name, value]) => [name, cut.text(value)])),
    score: c.score,
    output_excerpt: sample ? outputOf(sample, cut) : '',
    ...(cut.traced && sample?.output != null ? { output_chars: countChars(sample.output) } : {}),
    failed_checks: (sample?.checks ?? [])
      .filter((check) => !check.pass)
      .map((check) => ({
        name: check.name,
        type: check.type,
        reason: cut.reason(check.reason),
        ...(attribute ? { part: attribute(check) } : {}),
      })),
    judge: sample?.judge
      ? { criteria: { ...sample.judge.criteria }, reasoning: cut.reason(sample.judge.reasoning) }
      : null,
    failed_expectations: (sample?.expectations ?? [])
      .filter((e) => !e.passed)
      .map((e) => ({ text: e.text, evidence: cut.reason(e.evidence) })),
  };
}

function worstSample(samples: readonly SampleResult[]): SampleResult | undefined {
  let worst: SampleResult | undefined;
  let worstBadness = -1;
  for (const sample of samples) {
    const badness = badnessOf(sample);
    if (badness > worstBadness) {
      worst = sample;
      worstBadness = badness;
    }
  }
  return worst;
}

function badnessOf(sample: SampleResult): number {
  if (sample.output === null) return Number.POSITIVE_INFINITY;
  const failedChecks = sample.checks.filter((c) => !c.pass).length;
  const failedExpectations = sample.expectations.filter((e) => !e.passed).length;
  const scores = Object.values(sample.judge?.criteria ?? {});
  const judgeShortfall = scores.length === 0 ? 0 : (5 - mean(scores)) / 4;
  return failedChecks + failedExpectations + judgeShortfall;
}

function outputOf(sample: SampleResult, cut: Cutter): string {
  if (sample.output === null) return `[generation failed: ${cut.reason(sample.error ?? 'no output')}]`;
  return cut.text(sample.output);
}

function countCheckFailures(cases: readonly CaseResult[]): MutatorFeedback['check_failures'] {
  const counts = new Map<string, { name: string; type: string; failed: number; total: number }>();
  for (const c of cases)
    for (const sample of c.samples)
      for (const check of sample.checks) {
        const key = `${check.name}\u0000${check.type}`;
        const entry = counts.get(key) ?? { name: check.name, type: check.type, failed: 0, total: 0 };
        entry.total++;
        if (!check.pass) entry.failed++;
        counts.set(key, entry);
      }
  return [...counts.values()]
    .filter((entry) => entry.failed > 0)
    .sort((a, b) => b.failed - a.failed || compareText(a.name, b.name) || compareText(a.type, b.type));
}

// The most recent attempts are the ones worth showing (they include the latest failures the
// mutator must not repeat); among them, best first so what worked stands out: by the gain over
// their parent where attempts carry one (pareto), then by score.
function summariseHistory(history: readonly AttemptSummary[], max: number): MutatorFeedback['history'] {
  return [...history]
    .sort((a, b) => b.iteration - a.iteration || (b.candidate ?? 0) - (a.candidate ?? 0))
    .slice(0, Math.max(0, max))
    .sort(
      (a, b) =>
        compareScores(b.delta ?? null, a.delta ?? null) ||
        compareScores(b.trainScore, a.trainScore) ||
        b.iteration - a.iteration ||
        (a.candidate ?? 0) - (b.candidate ?? 0),
    )
    .map((attempt) => ({
      iteration: attempt.iteration,
      status: attempt.status,
      score: attempt.trainScore,
      hypothesis: cutText(attempt.hypothesis, HYPOTHESIS_CHARS),
      ...(attempt.candidate === undefined ? {} : { candidate: attempt.candidate }),
      ...(attempt.parents === undefined ? {} : { parents: [...attempt.parents] }),
      ...(attempt.member === undefined ? {} : { member: attempt.member }),
      ...(attempt.delta === undefined ? {} : { delta: attempt.delta }),
    }));
}

/** Ascending, with a missing score below every number. */
function compareScores(a: number | null, b: number | null): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  return a - b;
}

function mean(values: readonly number[]): number {
  return values.reduce((sum, v) => sum + v, 0) / values.length;
}

function compareText(a: string, b: string): number {
  if (a < b) return -1;
  return a > b ? 1 : 0;
}
