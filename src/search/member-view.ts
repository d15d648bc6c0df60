/**
 * A pool member as the loop works with it (docs/design/pareto-search.md): its prompt, scores and
 * last evaluation, read back from the member's own record (iteration, candidate) exactly as the
 * greedy loop reads its incumbent — so a parent after a resume is the parent before it. Also which
 * members are live: a rebaseline journals a new seed, and only members from the latest seed on
 * share its scale (the ones before it were scored under another setup).
 */
import { type IncumbentView, incumbentView, loadCandidate } from '../loop/incumbent.js';
import type { PoolMemberRecord, PoolState } from '../run/run-state.js';

export async function loadMemberView(runDir: string, member: PoolMemberRecord): Promise<IncumbentView> {
  const stored = await loadCandidate(runDir, member.iteration, member.candidate);
  return incumbentView(stored, {
    train: member.train ?? stored.scores.train.total ?? 0,
    holdout: member.holdout,
    eligible: member.eligible,
  });
}

/** The member with this id; a pool read from its own journal always has it. */
export function memberById(pool: PoolState, id: string): PoolMemberRecord {
  const member = pool.members.find((m) => m.id === id);
  if (!member) throw new Error(`the pool has no member ${id}`);
  return member;
}
