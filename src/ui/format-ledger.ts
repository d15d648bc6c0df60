/**
 * The ledger per role (docs/design/cost-engine.md) as text, one line per role that made calls:
 * calls (batch, response-cache hits and interactive), input tokens with the prompt cache's writes
 * and reads among them, output tokens and USD. `show` and the run's closing summary print the same
 * lines, so a night's bill reads the same wherever it is looked at; `watch`, `show` and the run's
 * output say the spend alerts the same way.
 */
import { ROLES } from '../experiment/roles.js';
import type { SpendRole } from '../run/events.js';
import type { RoleSpend } from '../run/run-state.js';

/** `12,345`: token counts get large enough to want separators. */
export function formatCount(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

/** Four decimals under $10: a role's share of a cheap run is still worth reading. */
export function formatLedgerUsd(usd: number): string {
  return `$${usd.toFixed(usd < 10 ? 4 : 2)}`;
}

/** One role's line, without its name. */
export function describeRoleSpend(spend: RoleSpend): string {
  // A response-cache hit is neither: no provider call was made, nothing paid.
  const interactive = spend.calls - spend.batchCalls - spend.cachedCalls;
  const cached = spend.cachedCalls > 0 ? `${spend.cachedCalls} cached, ` : '';
  const calls =
    spend.batchCalls > 0
      ? `${spend.calls} calls (${spend.batchCalls} batch, ${cached}${interactive} interactive)`
      : `${spend.calls} call${spend.calls === 1 ? '' : 's'}`;
  const cache =
    spend.cacheWriteTokens > 0 || spend.cacheReadTokens > 0
      ? ` (cache write ${formatCount(spend.cacheWriteTokens)}, cache read ${formatCount(spend.cacheReadTokens)})`
      : '';
  // A journal written before the ledger's token counts has none to show.
  const tokens =
    spend.inputTokens > 0 || spend.outputTokens > 0
      ? `; in ${formatCount(spend.inputTokens)}${cache}, out ${formatCount(spend.outputTokens)}`
      : '';
  return `${calls}${tokens}; ${formatLedgerUsd(spend.usd)}`;
}

/** `generator  24 calls (8 batch, 4 cached, 12 interactive); in 52,000 (cache write …), out 9,000; $0.1234`. */
export function ledgerLines(byRole: Readonly<Record<SpendRole, RoleSpend>>): string[] {
  const roles = ROLES.filter((role) => byRole[role].calls > 0);
  const width = Math.max(0, ...roles.map((role) => role.length));
  return roles.map((role) => `${role.padEnd(width)}  ${describeRoleSpend(byRole[role])}`);
}

/** `spend alert: 50% of budget.usd reached ($0.52 of $1.00) at iteration 3`. */
export function describeSpendAlert(alert: {
  threshold: number;
  spentUsd: number;
  budgetUsd: number;
  iteration?: number | null;
}): string {
  const where =
    alert.iteration === undefined || alert.iteration === null ? '' : ` at iteration ${alert.iteration}`;
  return `spend alert: ${Math.round(alert.threshold * 100)}% of budget.usd reached ($${alert.spentUsd.toFixed(2)} of $${alert.budgetUsd.toFixed(2)})${where}`;
}
