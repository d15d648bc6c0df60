/**
 * Reflective mutation with traces (docs/design/pareto-search.md): what the mutator learns about the
 * parent a pareto proposal revises. Its failing cases within the iteration's minibatch (the worst
 * TRACED_CASES), each with the whole output (cut only past TRACE_CHARS, the cut marked), every
 * failed check's reason, the judge's reasoning beside each criterion's score and the grader's
 * evidence; and the attempts already made from the parent and its ancestors, each with its
 * outcome (status, gain over its own parent, hypothesis). Built on src/loop/build-feedback.ts, so the request keeps the
 * `autoresearch.mutator-feedback/v1` shape (the new fields are optional) and its guard: a
 * holdout or test case, or a minibatch case that is not a train case, throws.
 */
import type { Attribute } from '../loop/attribute-failure.js';
import {
  type AttemptSummary,
  buildMutatorFeedback,
  type CaseResult,
  type PartsContext,
  type SignalScores,
} from '../loop/build-feedback.js';
import type { Strategy } from '../loop/strategy.js';
import type { MutatorFeedback } from '../protocol/mutation.js';
import type { PoolState } from '../run/run-state.js';
import { memberNumber } from '../run/member-id.js';
import { ancestorsOf } from './pool.js';

/** Outputs, reasons, reasoning and evidence are shown whole up to this many characters each. */
export const TRACE_CHARS = 4000;
/** At most this many failing cases are shown, worst first (the default minibatch's size: a larger one would swell the request). */
export const TRACED_CASES = 8;
/** The most recent attempts of the lineage shown. */
export const LINEAGE_ATTEMPTS = 16;

export interface ParentFeedbackInput {
  /** The pool member revised: its id, prompt (the loop's text: a parts document with several parts) and train scores. */
  parent: { id: string; prompt: string; score: SignalScores; criteria: Record<string, number> };
  /** The parent's per-case train results (src/loop/case-results.ts `trainCaseResults` of its evaluation). */
  trainCases: readonly CaseResult[];
  /**
   * Train case ids of this iteration's minibatch (docs/design/paired-acceptance.md); null: every
   * train case.
   */
  minibatch: readonly string[] | null;
  /** The pool as the run state folds it (`state.pool`): members give the lineage, decisions the attempts. */
  pool: Pick<PoolState, 'members' | 'decisions'>;
  mode: Strategy;
  guidance: string;
  maxGrowth: number;
  /** Prompt parts (build-feedback.ts `partsContextOf`); absent for a path prompt. */
  parts?: PartsContext;
  /** Several optimisable parts: the part each failing check most likely comes from. */
  attribute?: Attribute;
  /** Defaults to TRACE_CHARS. */
  traceChars?: number;
}

export function buildParentFeedback(input: ParentFeedbackInput): MutatorFeedback {
  const { parent } = input;
  if (!input.pool.members.some((m) => m.id === parent.id))
    throw new Error(`buildParentFeedback: "${parent.id}" is not a member of the pool`);
  const shown = input.minibatch ?? input.trainCases.map((c) => c.id);
  return buildMutatorFeedback({
    incumbent: { prompt: parent.prompt, score: parent.score, criteria: parent.criteria },
    ...(input.parts ? { parts: input.parts } : {}),
    ...(input.attribute ? { attribute: input.attribute } : {}),
    trainCases: input.trainCases,
    failingFrom: shown,
    maxFailingCases: TRACED_CASES,
    traceChars: input.traceChars ?? TRACE_CHARS,
    history: lineageAttempts(input.pool, parent.id),
    maxHistory: LINEAGE_ATTEMPTS,
    tried: input.pool.decisions.map((d) => d.hypothesis ?? ''),
    parent: { member: parent.id, ancestors: ancestorIds(input.pool, parent.id) },
    guidance: input.guidance,
    strategy: input.mode,
    maxGrowth: input.maxGrowth,
  });
}

/**
 * Every decided candidate made from `member` or one of its ancestors (a merge counts when either
 * of its members is in the lineage), with its outcome. Holdout figures are left out: only the
 * train score, the gain over its parent (train, or the minibatch's for a screened-out one) and
 * the hypothesis reach the mutator.
 */
export function lineageAttempts(
  pool: Pick<PoolState, 'members' | 'decisions'>,
  member: string,
): AttemptSummary[] {
  const lineage = ancestorsOf(pool.members, member);
  return pool.decisions
    .filter((d) => d.parents.some((p) => lineage.has(p)))
    .map((d) => ({
      iteration: d.iteration,
      candidate: d.candidate,
      status: d.status,
      trainScore: d.train,
      hypothesis: d.hypothesis ?? '',
      parents: [...d.parents],
      member: d.member,
      delta: d.delta ?? d.screen?.mean ?? null,
    }));
}

/** The member's ancestors, nearest first (ties by id). */
function ancestorIds(pool: Pick<PoolState, 'members'>, member: string): string[] {
  return [...ancestorsOf(pool.members, member)]
    .filter(([id]) => id !== member)
    .sort(([a, da], [b, db]) => da - db || memberNumber(a) - memberNumber(b))
    .map(([id]) => id);
}
