/**
 * Which sample indices a retest draws (docs/design/paired-acceptance.md, "Fresh samples"). A
 * sample index is part of every model call's cache key (src/providers/cache-key.ts), so the same
 * prompt on the same case at the same index is the same draw: replaying an index is reusing a
 * sample, not taking a new one.
 *
 * A member's own draws are its evaluation, `[0, samples)`, and its retest as a candidate in the
 * iteration that proposed it, `[samples, samples + retest)`. Every later retest of the member as
 * an incumbent (greedy) or a parent (pareto) takes a block of its own, numbered by the iteration
 * and the candidate it is compared with — both recorded in the journal — so no two decisions
 * ever share a draw of the parent, even two candidates of one iteration retesting the same parent
 * at once, while a resumed or redone iteration computes the same block and the response cache
 * answers its exact repeats.
 */

/** Candidates per iteration the numbering leaves room for, as the judge's seed does (src/evaluate/evaluate.ts). */
const CANDIDATE_STRIDE = 1000;

export interface RetestSampling {
  samples: number;
  retest: number;
}

/** The first sample index of a candidate's own retest, in the iteration that proposed it. */
export function candidateRetestBase(search: RetestSampling): number {
  return search.samples;
}

/**
 * The first sample index of the incumbent's (or parent's) retest in `iteration`, against
 * `candidate`: past the member's own draws, in a block no other decision uses.
 */
export function incumbentRetestBase(search: RetestSampling, iteration: number, candidate: number): number {
  const block = iteration * CANDIDATE_STRIDE + (candidate % CANDIDATE_STRIDE);
  return search.samples + search.retest + block * search.retest;
}

/** The indices `[base, base + count)`, as decision.json lists them. */
export function sampleRange(base: number, count: number): number[] {
  return Array.from({ length: count }, (_, i) => base + i);
}
