/**
 * The pool's arithmetic (docs/design/pareto-search.md), pure: the front and what each member leads,
 * the seeded parent draw, the lineage (nearest common ancestor) and the pair a merge joins. The
 * loop journals what these return; the fold (src/run/fold-pool.ts) gives them their input back
 * on resume, so the same journal always makes the same choices.
 */
import { sha256Hex } from '../sha256.js';
import { memberNumber } from '../run/member-id.js';

/** What the pool arithmetic reads of a member (a PoolMemberRecord satisfies it). */
export interface PoolMemberView {
  id: string;
  parents: readonly string[];
  /** Train case id → total. */
  cases: Readonly<Record<string, number>>;
}

export interface Front {
  /** Front members in pool order (p0 first): each leads at least one train case. */
  members: string[];
  /** Member id → the train cases it leads (best within min_effect), for every front member. */
  leads: Map<string, string[]>;
}

/**
 * The front: for each train case, the members whose score there is within `minEffect` of the
 * case's best score lead it; a member leading at least one case is on the front. Cases no member
 * scored are skipped. `caseIds` fixes the case order (and which cases count).
 */
export function frontOf(
  members: readonly PoolMemberView[],
  caseIds: readonly string[],
  minEffect: number,
): Front {
  const leads = new Map<string, string[]>();
  for (const caseId of caseIds) {
    let best = Number.NEGATIVE_INFINITY;
    for (const m of members) {
      const score = m.cases[caseId];
      if (score !== undefined && score > best) best = score;
    }
    if (best === Number.NEGATIVE_INFINITY) continue;
    for (const m of members) {
      const score = m.cases[caseId];
      // A tiny tolerance so a difference of exactly min_effect counts as a tie despite rounding.
      if (score !== undefined && score >= best - minEffect - 1e-12) {
        const list = leads.get(m.id) ?? [];
        list.push(caseId);
        leads.set(m.id, list);
      }
    }
  }
  const order = members.map((m) => m.id).filter((id) => leads.has(id));
  return { members: order, leads: new Map(order.map((id) => [id, leads.get(id) as string[]])) };
}

/** Each front member's weight in the parent draw: the number of train cases it leads. */
export function frontWeights(front: Front): Record<string, number> {
  return Object.fromEntries(front.members.map((id) => [id, front.leads.get(id)?.length ?? 0]));
}

/**
 * A uniform in [0, 1) from sha256 of `key`: the seeded draws of docs/design/pareto-search.md, the same
 * on every resume.
 */
export function seededUniform(key: string): number {
  // 52 bits: exactly representable, and below 1.
  return Number.parseInt(sha256Hex(key).slice(0, 13), 16) / 2 ** 52;
}

export interface ParentDraw {
  candidate: number;
  parent: string;
  draw: number;
}

/**
 * The parents of one iteration's `count` proposals: each drawn from the front with probability ∝
 * the cases it leads, seeded by (seed, iteration, candidate). Proposals in one iteration take
 * different parents while the front has members left (a drawn member's weight drops out); once
 * every front member is taken, the draw starts over from the whole front.
 */
export function chooseParents(front: Front, count: number, seed: number, iteration: number): ParentDraw[] {
  if (front.members.length === 0) throw new Error('chooseParents: the front is empty');
  const weights = frontWeights(front);
  const draws: ParentDraw[] = [];
  let left = [...front.members];
  for (let candidate = 0; candidate < count; candidate++) {
    if (left.length === 0) left = [...front.members];
    const draw = seededUniform(`parent:${seed}:${iteration}:${candidate}`);
    const parent = pickWeighted(left, weights, draw);
    draws.push({ candidate, parent, draw });
    left = left.filter((id) => id !== parent);
  }
  return draws;
}

/** The member whose cumulative weight first exceeds draw × total (in the given order). */
export function pickWeighted(
  ids: readonly string[],
  weights: Readonly<Record<string, number>>,
  draw: number,
): string {
  const total = ids.reduce((sum, id) => sum + (weights[id] ?? 0), 0);
  if (total <= 0) return ids[Math.min(ids.length - 1, Math.floor(draw * ids.length))] as string;
  let target = draw * total;
  for (const id of ids) {
    target -= weights[id] ?? 0;
    if (target < 0) return id;
  }
  return ids[ids.length - 1] as string;
}

/** Every ancestor of `id` (itself included) with its distance in parent steps (the shortest). */
export function ancestorsOf(members: readonly PoolMemberView[], id: string): Map<string, number> {
  const byId = new Map(members.map((m) => [m.id, m]));
  const distance = new Map<string, number>([[id, 0]]);
  let frontier = [id];
  while (frontier.length > 0) {
    const next: string[] = [];
    for (const current of frontier) {
      for (const parent of byId.get(current)?.parents ?? []) {
        if (distance.has(parent)) continue;
        distance.set(parent, (distance.get(current) as number) + 1);
        next.push(parent);
      }
    }
    frontier = next;
  }
  return distance;
}

/**
 * The nearest common ancestor of two members by pool lineage. Only lowest common ancestors
 * qualify (no other common ancestor descends from them): with merges in the lineage an older
 * ancestor can be fewer steps away through the other parent, and a three-way merge from it would
 * see the edits both sides inherited as edits of their own. Among those, the smallest summed
 * distance to both; ties go to the lower id (p2 before p10). Null only when the two share no
 * ancestor (never in one run: every member descends from p0).
 */
export function nearestCommonAncestor(
  members: readonly PoolMemberView[],
  a: string,
  b: string,
): string | null {
  const fromA = ancestorsOf(members, a);
  const fromB = ancestorsOf(members, b);
  const common = [...fromA.keys()].filter((id) => fromB.has(id));
  // A common ancestor that is a proper ancestor of another one is not lowest.
  const older = new Set<string>();
  for (const id of common)
    for (const above of ancestorsOf(members, id).keys()) if (above !== id) older.add(above);
  let best: { id: string; distance: number } | null = null;
  for (const id of common) {
    if (older.has(id)) continue;
    const distance = (fromA.get(id) as number) + (fromB.get(id) as number);
    if (
      best === null ||
      distance < best.distance ||
      (distance === best.distance && memberNumber(id) < memberNumber(best.id))
    )
      best = { id, distance };
  }
  return best?.id ?? null;
}

export interface MergePair {
  a: string;
  b: string;
  ancestor: string;
}

/**
 * The pair a merge joins: two front members that each lead a case the other does not, neither
 * an ancestor of the other, not merged before (`tried`, as "pA+pB" with the lower id first).
 * Among those, the pair leading the most cases together; ties go to the lower ids. Null when no
 * pair qualifies (the iteration then proposes as usual).
 */
export function chooseMergePair(
  members: readonly PoolMemberView[],
  front: Front,
  tried: ReadonlySet<string> = new Set(),
): MergePair | null {
  let best: (MergePair & { union: number }) | null = null;
  const ids = [...front.members].sort((x, y) => memberNumber(x) - memberNumber(y));
  for (let i = 0; i < ids.length; i++) {
    for (let j = i + 1; j < ids.length; j++) {
      const a = ids[i] as string;
      const b = ids[j] as string;
      if (tried.has(mergeKey(a, b))) continue;
      const leadsA = new Set(front.leads.get(a));
      const leadsB = new Set(front.leads.get(b));
      const onlyA = [...leadsA].some((c) => !leadsB.has(c));
      const onlyB = [...leadsB].some((c) => !leadsA.has(c));
      if (!onlyA || !onlyB) continue;
      // A member descending from the other already holds its edits: nothing to merge.
      if (ancestorsOf(members, a).has(b) || ancestorsOf(members, b).has(a)) continue;
      const ancestor = nearestCommonAncestor(members, a, b);
      if (ancestor === null) continue;
      const union = new Set([...leadsA, ...leadsB]).size;
      if (best === null || union > best.union) best = { a, b, ancestor, union };
    }
  }
  return best === null ? null : { a: best.a, b: best.b, ancestor: best.ancestor };
}

/** How a tried merge is remembered: the two ids, lower first. */
export function mergeKey(a: string, b: string): string {
  return memberNumber(a) <= memberNumber(b) ? `${a}+${b}` : `${b}+${a}`;
}

/**
 * The members from the latest seeding on: the whole pool unless the run was rebaselined, whose new
 * seed starts a new scale (only members scored on it share a front with it). The seeds of one
 * baseline (a pool start's, docs/design/pareto-search.md) are one seeding.
 */
export function liveMembers<M extends { kind: string; iteration: number }>(members: readonly M[]): M[] {
  const last = members.findLast((m) => m.kind === 'seed');
  if (last === undefined) return [...members];
  return members.slice(members.findIndex((m) => m.kind === 'seed' && m.iteration === last.iteration));
}
