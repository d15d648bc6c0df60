/**
 * Spend has one source, the pool's ledger (every call's cost): the loop journals its growth
 * per role at each point an iteration or the final evaluation ends. Each take starts where the
 * last one stopped, so a call is journaled once, and an iteration cut short by Ctrl-C still
 * journals what it paid. Each spend event carries the tokens by kind and the batch calls, so the
 * journal holds the ledger per role (docs/design/cost-engine.md).
 */
import { ROLES } from '../experiment/roles.js';
import type { CostLedger, LedgerSnapshot, SpendTotals } from '../providers/ledger.js';
import type { Phase, RunEventBody } from '../run/events.js';

export interface SpendMeter {
  /** The spend events of every call since the last take. */
  take(where: { iteration: number; phase?: Phase }): RunEventBody[];
}

export function createSpendMeter(ledger: CostLedger): SpendMeter {
  let mark = ledger.snapshot();
  return {
    take(where) {
      const now = ledger.snapshot();
      const events = spendSince(mark, now, where);
      mark = now;
      return events;
    },
  };
}

type TokenCount = keyof Pick<
  SpendTotals,
  'inputTokens' | 'cacheWriteTokens' | 'cacheReadTokens' | 'outputTokens' | 'batchCalls' | 'cachedCalls'
>;

/**
 * The ledger's growth per role between two snapshots, as spend events (the ledger per role,
 * docs/design/cost-engine.md).
 */
export function spendSince(
  before: LedgerSnapshot,
  after: LedgerSnapshot,
  /**
   * Where the spend happened; a `calibrate` run has no iterations
   * (docs/design/judge-reliability.md).
   */
  where: { iteration?: number; phase?: Phase },
): RunEventBody[] {
  const events: RunEventBody[] = [];
  for (const role of ROLES) {
    const a = after.byRole[role];
    if (!a) continue;
    const b = before.byRole[role];
    const grown = (key: TokenCount) => a[key] - (b?.[key] ?? 0);
    const calls = a.calls - (b?.calls ?? 0);
    const usd = Math.max(0, a.usd - (b?.usd ?? 0));
    if (calls > 0)
      events.push({
        type: 'spend',
        role,
        usd,
        calls,
        inputTokens: grown('inputTokens'),
        cacheWriteTokens: grown('cacheWriteTokens'),
        cacheReadTokens: grown('cacheReadTokens'),
        outputTokens: grown('outputTokens'),
        batchCalls: grown('batchCalls'),
        cachedCalls: grown('cachedCalls'),
        ...where,
      });
  }
  return events;
}
