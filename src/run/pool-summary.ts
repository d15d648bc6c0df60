/**
 * The pool in a few numbers (docs/design/pareto-search.md), for the end-of-run summary and `runs`:
 * how many members it holds, which one is the best, and what merges did (attempted, entered the
 * pool, became the best). Also the calls screening saved, counted per candidate: under pareto every
 * candidate is screened on its own.
 */
import type { PoolState } from './run-state.js';

export interface PoolSummary {
  members: number;
  best: string | null;
  merges: { attempted: number; pooled: number; best: number };
}

export function summarizePool(pool: PoolState): PoolSummary {
  return { members: pool.members.length, best: pool.best, merges: { ...pool.merges } };
}

export function poolCallsSaved(pool: PoolState): number {
  return pool.decisions.reduce((sum, d) => sum + (d.screen?.callsSaved ?? 0), 0);
}

/** `4 members (best p3); merges: 2 attempted, 1 pooled, 1 became the best` */
export function describePool(summary: PoolSummary): string {
  const { members, best, merges } = summary;
  const head = `${members} member${members === 1 ? '' : 's'}${best === null ? '' : ` (best ${best})`}`;
  return `${head}; merges: ${describeMerges(merges)}`;
}

/** `2 attempted, 1 pooled, 1 became the best` (show, watch and the end-of-run summary alike). */
export function describeMerges(merges: PoolSummary['merges']): string {
  if (merges.attempted === 0) return 'none attempted yet';
  return `${merges.attempted} attempted, ${merges.pooled} pooled, ${merges.best} became the best`;
}
