import { describe, expect, it } from 'vitest';
import { type CallRecord, createCostLedger } from '../../../src/providers/ledger.js';

const call = (over: Partial<CallRecord>): CallRecord => ({
  role: 'generator',
  provider: 'anthropic',
  model: 'm',
  ok: true,
  inputTokens: 100,
  outputTokens: 50,
  costUsd: 0.01,
  cached: false,
  attempts: 1,
  latencyMs: 5,
  simulated: false,
  ...over,
});

describe('createCostLedger', () => {
  it('adds a call on an account to that account too; settling reads it once and forgets it', () => {
    const ledger = createCostLedger();
    ledger.record(call({ account: 'a', costUsd: 0.01 }));
    ledger.record(call({ account: 'b', costUsd: 0.5 }));
    ledger.record(call({ account: 'a', role: 'judge', costUsd: 0.02 }));
    ledger.record(call({ account: 'a', cached: true, costUsd: 0, originalCostUsd: 0.3 }));
    ledger.record(call({ costUsd: 1 }));
    expect(ledger.settle('a')).toBeCloseTo(0.03, 10);
    expect(ledger.settle('a')).toBe(0);
    expect(ledger.settle('b')).toBe(0.5);
    expect(ledger.snapshot().total.usd).toBeCloseTo(1.53, 10);
  });

  it('totals per role and overall, with cached and unpriced calls apart', () => {
    const ledger = createCostLedger();
    const seen: number[] = [];
    const stop = ledger.onCall((_record, snap) => seen.push(snap.total.calls));
    ledger.record(call({}));
    ledger.record(call({ role: 'judge', costUsd: 0.02 }));
    ledger.record(call({ role: 'judge', cached: true, costUsd: 0, originalCostUsd: 0.02 }));
    ledger.record(call({ role: 'mutator', costUsd: null }));
    stop();
    ledger.record(
      call({ role: 'grader', ok: false, costUsd: 0, inputTokens: 0, outputTokens: 0, errorKind: 'server' }),
    );
    const snap = ledger.snapshot();
    expect(seen).toEqual([1, 2, 3, 4]);
    expect(snap.total).toMatchObject({
      calls: 5,
      failedCalls: 1,
      cachedCalls: 1,
      unpricedCalls: 1,
      inputTokens: 300,
    });
    expect(snap.total.usd).toBeCloseTo(0.03, 10);
    expect(snap.total.cachedUsd).toBeCloseTo(0.02, 10);
    expect(snap.byRole.judge).toMatchObject({ calls: 2, cachedCalls: 1 });
    expect(snap.byRole.judge?.usd).toBeCloseTo(0.02, 10);
    expect(snap.byRole.mutator).toMatchObject({ unpricedCalls: 1, usd: 0 });
  });

  it("counts the prompt cache's writes and reads and the batch calls; a response-cache hit adds no tokens", () => {
    const ledger = createCostLedger();
    ledger.record(call({ inputTokens: 2000, cacheWriteTokens: 1500, outputTokens: 10 }));
    ledger.record(call({ inputTokens: 2000, cacheReadTokens: 1500, outputTokens: 10, batch: true }));
    ledger.record(call({ role: 'judge', inputTokens: 900, outputTokens: 30, batch: true }));
    ledger.record(call({ inputTokens: 2000, cacheReadTokens: 1500, cached: true, costUsd: 0 }));
    expect(ledger.snapshot().byRole.generator).toMatchObject({
      calls: 3,
      batchCalls: 1,
      inputTokens: 4000,
      cacheWriteTokens: 1500,
      cacheReadTokens: 1500,
      outputTokens: 20,
    });
    expect(ledger.snapshot().total).toMatchObject({ calls: 4, batchCalls: 2, inputTokens: 4900 });
  });

  it('hands out snapshots, not its own state', () => {
    const ledger = createCostLedger();
    ledger.record(call({}));
    const snap = ledger.snapshot();
    snap.total.calls = 99;
    expect(ledger.snapshot().total.calls).toBe(1);
  });
});
