/**
 * The pool half of the run-state fold (docs/design/pareto-search.md): members as `pool_member`
 * events add them, the parent choices, each candidate's outcome, and which member is the run's
 * best. Only record version 5 pareto runs journal these events; every other run keeps `pool` null.
 */
import type { EventOf } from './events.js';
import type { PoolState } from './run-state.js';

export function emptyPool(): PoolState {
  return {
    members: [],
    best: null,
    choices: [],
    decisions: [],
    merges: { attempted: 0, pooled: 0, best: 0 },
  };
}

/** A redone iteration chooses its parents again: the abandoned attempt's choices go. */
export function startPoolIteration(pool: PoolState | null, iteration: number): void {
  if (pool === null) return;
  pool.choices = pool.choices.filter((c) => c.iteration !== iteration);
}

export function addParentChoice(pool: PoolState, event: EventOf<'parent_chosen'>): void {
  pool.choices = pool.choices.filter(
    (c) => !(c.iteration === event.iteration && c.candidate === event.candidate),
  );
  pool.choices.push({
    iteration: event.iteration,
    candidate: event.candidate,
    kind: event.kind,
    parents: [...event.parents],
    ancestor: event.ancestor ?? null,
    weights: { ...event.weights },
    draw: event.draw,
  });
}

export function addDecision(pool: PoolState, event: EventOf<'candidate_decided'>): void {
  pool.decisions.push({
    iteration: event.iteration,
    candidate: event.candidate,
    kind: event.kind,
    parents: [...event.parents],
    status: event.status,
    member: event.member,
    train: event.train,
    holdout: event.holdout,
    delta: event.delta,
    paired: event.paired ?? null,
    pairedOther: event.pairedOther ?? null,
    screen: event.screen ?? null,
    best: event.best ?? null,
    conflicts: event.conflicts ?? null,
    errorKind: event.errorKind ?? null,
    message: event.message ?? null,
    hypothesis: event.hypothesis,
    promptSha256: event.promptSha256,
  });
  if (event.kind === 'merge') {
    pool.merges.attempted += 1;
    if (event.member !== null) pool.merges.pooled += 1;
    if (event.best?.moved) pool.merges.best += 1;
  }
}

export function addMember(pool: PoolState, event: EventOf<'pool_member'>): void {
  // A member is journaled once; a replayed journal never holds it twice, but be strict anyway.
  if (pool.members.some((m) => m.id === event.member)) return;
  pool.members.push({
    id: event.member,
    iteration: event.iteration,
    candidate: event.candidate,
    kind: event.kind,
    parents: [...event.parents],
    promptSha256: event.promptSha256,
    train: event.train,
    holdout: event.holdout,
    eligible: event.eligible,
    cases: { ...event.cases },
    ...(event.origin === undefined ? {} : { origin: event.origin }),
  });
  // The baseline's seed is the best; a pool start's other seeds (later candidates) join beside it.
  if (event.kind === 'seed' && event.candidate === 0) pool.best = event.member;
}

/** A keep under pareto makes the member that candidate became the run's best. */
export function finishPoolIteration(pool: PoolState | null, event: EventOf<'iteration_finished'>): void {
  if (pool === null || event.status !== 'keep' || event.candidate === null) return;
  const member = pool.members.find((m) => m.iteration === event.iteration && m.candidate === event.candidate);
  if (member) pool.best = member.id;
}

/** A snapshot: later events never change a state handed out before. */
export function copyPool(pool: PoolState | null): PoolState | null {
  if (pool === null) return null;
  return {
    members: [...pool.members],
    best: pool.best,
    choices: [...pool.choices],
    decisions: [...pool.decisions],
    merges: { ...pool.merges },
  };
}
