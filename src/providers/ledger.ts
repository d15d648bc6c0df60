/**
 * Cost accounting for a run: every call's tokens and USD, totals per role, calls whose price
 * is unknown counted apart, and cache hits costing nothing now (their original cost kept
 * separately). The loop listens with `onCall` to journal spend and enforce the budget. A call
 * made on an account (a candidate's evaluation: candidates of an iteration share the clients)
 * is also added to that account, which its owner settles once: the candidate's cost comes
 * from the same records as the run's spend.
 *
 * The ledger per role (docs/design/cost-engine.md) also counts what the provider's prompt cache
 * wrote and served (of the input tokens) and the calls that went through a batch API (priced at its
 * discount by whoever made them), so a night's bill can be read back token kind by token kind.
 */
import type { ProviderName, Role } from '../experiment/schema.js';
import type { ProviderErrorKind } from './types.js';

export interface CallRecord {
  role: Role;
  provider: ProviderName;
  model: string;
  ok: boolean;
  /** Every input token, those the provider's prompt cache wrote or served included. */
  inputTokens: number;
  outputTokens: number;
  /** Of `inputTokens`: written to the provider's prompt cache. */
  cacheWriteTokens?: number;
  /** Of `inputTokens`: served by the provider's prompt cache. */
  cacheReadTokens?: number;
  /**
   * Made through the provider's batch API (docs/design/cost-engine.md), `costUsd` at its discount.
   */
  batch?: boolean;
  /** What this run paid: 0 for a cache hit, null when the price is unknown. */
  costUsd: number | null;
  /**
   * When `costUsd` is null: what the attempts that failed before the answer were billed
   * (CompletionResult.failedCostUsd). Spent, so counted in `usd`; the call stays unpriced.
   */
  failedCostUsd?: number;
  cached: boolean;
  /** For a cache hit: what the call cost when it was first made. */
  originalCostUsd?: number | null;
  attempts: number;
  latencyMs: number;
  simulated: boolean;
  errorKind?: ProviderErrorKind;
  /** Whose bill the call is on (CompletionRequest.account). */
  account?: string;
}

export interface SpendTotals {
  calls: number;
  failedCalls: number;
  cachedCalls: number;
  /**
   * Successful, uncached calls whose price is unknown: their answer's USD is not in `usd`; what
   * their failed attempts were billed is.
   */
  unpricedCalls: number;
  /** Tokens of uncached calls (a response-cache hit costs none): all input, the cache's shares of it, output. */
  inputTokens: number;
  cacheWriteTokens: number;
  cacheReadTokens: number;
  outputTokens: number;
  /** Calls made through a batch API; the others were interactive. */
  batchCalls: number;
  usd: number;
  /** What the cache hits originally cost (not spent by this run). */
  cachedUsd: number;
}

export interface LedgerSnapshot {
  byRole: Partial<Record<Role, SpendTotals>>;
  total: SpendTotals;
}

export type CallListener = (record: CallRecord, snapshot: LedgerSnapshot) => void;

export interface CostLedger {
  record(call: CallRecord): void;
  snapshot(): LedgerSnapshot;
  /** Returns an unsubscribe function. */
  onCall(listener: CallListener): () => void;
  /** What the calls on this account cost (USD); the account is forgotten. */
  settle(account: string): number;
}

export function emptyTotals(): SpendTotals {
  return {
    calls: 0,
    failedCalls: 0,
    cachedCalls: 0,
    unpricedCalls: 0,
    inputTokens: 0,
    cacheWriteTokens: 0,
    cacheReadTokens: 0,
    outputTokens: 0,
    batchCalls: 0,
    usd: 0,
    cachedUsd: 0,
  };
}

/** What the run is known to have paid for the call: its price, else its billed failed attempts. */
function spentUsd(call: CallRecord): number {
  return call.costUsd ?? call.failedCostUsd ?? 0;
}

export function addCall(totals: SpendTotals, call: CallRecord): SpendTotals {
  const paid = (tokens: number | undefined) => (call.cached ? 0 : (tokens ?? 0));
  return {
    calls: totals.calls + 1,
    failedCalls: totals.failedCalls + (call.ok ? 0 : 1),
    cachedCalls: totals.cachedCalls + (call.cached ? 1 : 0),
    unpricedCalls: totals.unpricedCalls + (call.ok && !call.cached && call.costUsd === null ? 1 : 0),
    inputTokens: totals.inputTokens + paid(call.inputTokens),
    cacheWriteTokens: totals.cacheWriteTokens + paid(call.cacheWriteTokens),
    cacheReadTokens: totals.cacheReadTokens + paid(call.cacheReadTokens),
    outputTokens: totals.outputTokens + paid(call.outputTokens),
    batchCalls: totals.batchCalls + (call.batch === true ? 1 : 0),
    usd: totals.usd + spentUsd(call),
    cachedUsd: totals.cachedUsd + (call.cached ? (call.originalCostUsd ?? 0) : 0),
  };
}

export function createCostLedger(): CostLedger {
  const byRole: Partial<Record<Role, SpendTotals>> = {};
  let total = emptyTotals();
  const listeners = new Set<CallListener>();
  const accounts = new Map<string, number>();
  const snapshot = (): LedgerSnapshot => ({
    byRole: Object.fromEntries(Object.entries(byRole).map(([k, v]) => [k, { ...v }])),
    total: { ...total },
  });
  return {
    record(call) {
      byRole[call.role] = addCall(byRole[call.role] ?? emptyTotals(), call);
      total = addCall(total, call);
      if (call.account !== undefined)
        accounts.set(call.account, (accounts.get(call.account) ?? 0) + spentUsd(call));
      if (listeners.size === 0) return;
      const snap = snapshot();
      for (const listener of listeners) listener(call, snap);
    },
    snapshot,
    settle(account) {
      const usd = accounts.get(account) ?? 0;
      accounts.delete(account);
      return usd;
    },
    onCall(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
