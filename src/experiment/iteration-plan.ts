/**
 * What one iteration of the loop is made of, before any model answers: how many proposals the
 * mutator is asked for, the seeded minibatch they are screened on, whether a pareto merge is
 * due, how many retests can follow, and whether the drift anchors are read again. Pure, and read
 * both by the loop (src/loop/iteration.ts hands it to the search as `IterationStart.schedule`;
 * src/loop/judge-anchors.ts reads `driftCheck`) and by the call count behind every estimate
 * (count-calls.ts), so the two cannot drift apart.
 */
import { sha256Hex } from '../sha256.js';
import { minibatchSize } from './acceptance.js';
import type { Acceptance, Search } from './schema.js';
import type { Case } from './types.js';

export interface Screening {
  /** The train cases every proposal is scored on first. */
  minibatch: Case[];
  /** The loop's other cases (train and holdout): scored only for a proposal that passes. */
  rest: Case[];
}

export interface IterationPlan {
  iteration: number;
  /** Proposals the mutator is asked for (a merge, when one is made, is a single candidate instead). */
  candidates: number;
  /** Pareto: every `search.merge_every` iterations the search tries one merge of two front members. */
  mergeDue: boolean;
  /** Paired, when the minibatch is smaller than the train cases; null: every proposal sees every case. */
  screening: Screening | null;
  /** Margin with `confirm`: a would-be keep is evaluated once more. */
  confirm: boolean;
  /**
   * Paired retests at most, each of both sides with `retestSamples` samples per case: greedy
   * retests only its leading proposal; pareto decides each candidate against its own parent, so
   * each may be retested.
   */
  retests: number;
  retestSamples: number;
  /** The drift anchors are judged again at this iteration's end (docs/design/judge-reliability.md). */
  driftCheck: boolean;
}

export interface IterationPlanInput {
  search: Pick<Search, 'candidates' | 'minibatch' | 'seed' | 'merge_every' | 'confirm' | 'retest'>;
  /** The search's name (src/search/strategy.ts `name`). */
  strategy: string;
  acceptance: Acceptance;
  /** The loop's cases (train and holdout; never the sealed test cases). */
  cases: readonly Case[];
  iteration: number;
  /** `judging.anchor_every`, or null when the run reads no drift anchors. */
  anchorEvery: number | null;
}

export function planIteration(input: IterationPlanInput): IterationPlan {
  const { search, iteration, acceptance } = input;
  const paired = acceptance === 'paired';
  const retestSamples = paired ? search.retest : 0;
  return {
    iteration,
    candidates: search.candidates,
    mergeDue: input.strategy === 'pareto' && iteration % search.merge_every === 0,
    screening: paired ? screeningOf(input.cases, search, iteration) : null,
    confirm: !paired && search.confirm,
    retests: retestSamples === 0 ? 0 : input.strategy === 'pareto' ? search.candidates : 1,
    retestSamples,
    driftCheck: input.anchorEvery !== null && iteration % input.anchorEvery === 0,
  };
}

/** The iteration's screening: its minibatch of the train cases and the rest, or null when screening is off. */
function screeningOf(
  cases: readonly Case[],
  search: Pick<Search, 'minibatch' | 'seed'>,
  iteration: number,
): Screening | null {
  const train = cases.filter((c) => c.split === 'train');
  const size = minibatchSize(search, train.length);
  if (size >= train.length) return null;
  const minibatch = drawMinibatch(train, size, search.seed, iteration);
  const inBatch = new Set(minibatch.map((c) => c.id));
  return { minibatch, rest: cases.filter((c) => !inBatch.has(c.id)) };
}

/**
 * The minibatch of one iteration: train cases ranked by sha256("minibatch:" + seed + ":" +
 * iteration + ":" + id), the first `size`. Seeded, so a resumed iteration draws the same one;
 * different per iteration, so no case escapes screening for the whole run.
 */
export function drawMinibatch(train: readonly Case[], size: number, seed: number, iteration: number): Case[] {
  return train
    .map((c) => ({ c, key: sha256Hex(`minibatch:${seed}:${iteration}:${c.id}`) }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .slice(0, size)
    .map(({ c }) => c);
}

/** The final evaluation scores the baseline and the best; once when they are the same prompt. */
export function finalEvaluationCount(baseline: string, best: string): 1 | 2 {
  return baseline === best ? 1 : 2;
}
