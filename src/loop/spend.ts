/** Spend events for a stretch of work: the ledger's growth per role since a snapshot. */
import { ROLES } from '../experiment/roles.js';
import type { LedgerSnapshot } from '../providers/ledger.js';
import type { Phase, RunEventBody } from '../run/events.js';

export function spendSince(
  before: LedgerSnapshot,
  after: LedgerSnapshot,
  where: { iteration: number; phase?: Phase },
): RunEventBody[] {
  const events: RunEventBody[] = [];
  for (const role of ROLES) {
    const a = after.byRole[role];
    if (!a) continue;
    const b = before.byRole[role];
    const calls = a.calls - (b?.calls ?? 0);
    const usd = Math.max(0, a.usd - (b?.usd ?? 0));
    if (calls > 0) events.push({ type: 'spend', role, usd, calls, ...where });
  }
  return events;
}
