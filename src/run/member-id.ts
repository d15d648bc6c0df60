/**
 * Pool member ids as the journal holds them (`pool_member`, docs/design/pareto-search.md): `p0`,
 * `p1`, … in the order members entered the pool. Read by the pareto search, git's pool refs and the
 * report.
 */

/** `p12` → 12. */
export function memberNumber(id: string): number {
  return Number.parseInt(id.slice(1), 10);
}

/** The id the next member takes. */
export function nextMemberId(members: readonly { id: string }[]): string {
  return `p${members.reduce((max, m) => Math.max(max, memberNumber(m.id) + 1), 0)}`;
}
