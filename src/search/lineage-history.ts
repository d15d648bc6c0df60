/**
 * The attempts the mutator is shown for a parent (SPEC 14): every candidate already proposed
 * from that parent or any of its ancestors, with its outcome — read from the pool's journaled
 * decisions, so the history after a resume is the one before it.
 */
import type { AttemptSummary } from '../loop/build-feedback.js';
import type { PoolState } from '../run/run-state.js';
import { ancestorsOf } from './pool.js';

export function lineageHistory(pool: PoolState, parent: string): AttemptSummary[] {
  const lineage = ancestorsOf(pool.members, parent);
  return pool.decisions
    .filter((d) => d.parents.some((p) => lineage.has(p)))
    .map((d) => ({
      iteration: d.iteration,
      status: d.member === null ? d.status : `${d.status} as ${d.member}`,
      trainScore: d.train,
      hypothesis: d.hypothesis ?? '',
    }));
}
