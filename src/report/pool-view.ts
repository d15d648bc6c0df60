/**
 * A pareto run's pool (docs/design/pareto-search.md) as every review shows it (`show`,
 * `show --json`, the report): each member with its lineage, scores and the train cases it leads,
 * whether it is on the front or the run's best, how many proposals were drawn from it, and what the
 * merges came to. Pure: the folded pool and the run's min_effect in; the front is computed here by
 * the same src/search/pool.ts the loop draws parents with, so a review never disagrees with the
 * search.
 */
import { Search } from '../experiment/schema.js';
import type { CandidateDecisionRecord, PoolMemberRecord, PoolState } from '../run/run-state.js';
import { frontOf, liveMembers } from '../search/pool.js';

export interface ReviewedMember {
  id: string;
  kind: PoolMemberRecord['kind'];
  /** Empty for p0; one for a mutation; two for a merge. */
  parents: string[];
  iteration: number;
  candidate: number;
  train: number | null;
  holdout: number | null;
  eligible: boolean;
  /** The train cases it leads (best within min_effect), in case order. */
  leads: string[];
  front: boolean;
  best: boolean;
  /** Proposals of this run drawn with it as a parent (a merge counts for both of its members). */
  proposals: number;
  /** The hypothesis it was proposed with; null for p0. */
  hypothesis: string | null;
  /** Train case id → its total. */
  cases: Record<string, number>;
}

export interface PoolReview {
  /** The tie tolerance of the front (`search.min_effect`). */
  minEffect: number;
  /** The train cases of the score matrix (of the members since the latest seed), in the order they were journaled. */
  cases: string[];
  members: ReviewedMember[];
  /** Front members in pool order. */
  front: string[];
  best: string | null;
  merges: PoolState['merges'];
  /** Every finished candidate's outcome, in journal order. */
  decisions: CandidateDecisionRecord[];
}

export function reviewPool(pool: PoolState, minEffect: number): PoolReview {
  // A rebaseline journals a new seed: only members from the latest seed on share its scale, so
  // only they make up the front (the loop draws parents from the same members).
  const live = liveMembers(pool.members);
  const cases = [...new Set(live.flatMap((m) => Object.keys(m.cases)))];
  const front = frontOf(live, cases, minEffect);
  const proposals = new Map<string, number>();
  for (const choice of pool.choices)
    for (const parent of new Set(choice.parents)) proposals.set(parent, (proposals.get(parent) ?? 0) + 1);
  const members = pool.members.map((m) => ({
    id: m.id,
    kind: m.kind,
    parents: [...m.parents],
    iteration: m.iteration,
    candidate: m.candidate,
    train: m.train,
    holdout: m.holdout,
    eligible: m.eligible,
    leads: front.leads.get(m.id) ?? [],
    front: front.leads.has(m.id),
    best: m.id === pool.best,
    proposals: proposals.get(m.id) ?? 0,
    hypothesis:
      (m.origin === undefined ? undefined : `a seed: ${m.origin}`) ??
      pool.decisions.find((d) => d.member === m.id)?.hypothesis ??
      pool.decisions.find((d) => d.iteration === m.iteration && d.candidate === m.candidate)?.hypothesis ??
      null,
    cases: { ...m.cases },
  }));
  return {
    minEffect,
    cases,
    members,
    front: front.members,
    best: pool.best,
    merges: { ...pool.merges },
    decisions: [...pool.decisions],
  };
}

/**
 * `search.min_effect` as the run's manifest resolved it; the schema's default when the manifest
 * is missing or does not say (a review still draws the front, at the tolerance a run would use).
 */
export function minEffectOf(config: Record<string, unknown> | null | undefined): number {
  const search = config?.['search'];
  const written =
    typeof search === 'object' && search !== null ? Reflect.get(search, 'min_effect') : undefined;
  const parsed = Search.shape.min_effect.safeParse(written);
  return parsed.success ? parsed.data : Search.shape.min_effect.parse(undefined);
}

/** The outcomes of one iteration's candidates, in candidate order. */
export function decisionsOf(summary: PoolReview, iteration: number): CandidateDecisionRecord[] {
  return summary.decisions.filter((d) => d.iteration === iteration).sort((a, b) => a.candidate - b.candidate);
}

/** `p1`, or `p1+p4` for a merge; `-` for p0. */
export function describeParents(parents: readonly string[]): string {
  return parents.length === 0 ? '-' : parents.join('+');
}
