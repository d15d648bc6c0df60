import { describe, expect, it } from 'vitest';
import type { BudgetReached } from '../../../src/providers/budget-reached.js';
import { createModelPool } from '../../../src/providers/model-pool.js';
import { createSpendReservations } from '../../../src/providers/spend-reservations.js';
import type { CompletionResult, Provider } from '../../../src/providers/types.js';

// $1 per 1,000 output tokens: a call with max_tokens 300 has a worst case of $0.30.
const PRICE = { input_per_mtok: 0, output_per_mtok: 1000 };

/** Answers when released, billed $0.10 each, and counts how many are in flight at once. */
function gatedProvider() {
  const waiting: (() => void)[] = [];
  let inFlight = 0;
  let most = 0;
  let started = 0;
  const provider: Provider = {
    name: 'openai',
    model: 'house',
    async complete(): Promise<CompletionResult> {
      started += 1;
      inFlight += 1;
      most = Math.max(most, inFlight);
      await new Promise<void>((resolve) => waiting.push(resolve));
      inFlight -= 1;
      return { text: 'ok', usage: { inputTokens: 0, outputTokens: 100 }, costUsd: 0.1, latencyMs: 1 };
    },
  };
  return {
    provider,
    releaseAll: () => {
      for (const release of waiting.splice(0)) release();
    },
    stats: () => ({ most, started }),
  };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('the model pool under budget.usd', () => {
  it('starts only the calls whose worst cases fit together, and refuses the call that never will', async () => {
    const gated = gatedProvider();
    const refused: BudgetReached[] = [];
    const reservations = createSpendReservations(1);
    const pool = createModelPool({
      models: { generator: { provider: 'openai', model: 'house', price: PRICE, max_tokens: 300 } },
      concurrency: 8,
      env: {},
      createProvider: () => gated.provider,
      budget: { reservations, onRefused: (reached) => refused.push(reached) },
    });
    const client = pool.client('generator');
    const calls = Array.from({ length: 10 }, (_, i) =>
      client.complete({ messages: [{ role: 'user', content: `case ${i}` }] }).then(
        () => 'ok',
        (error: Error) => error.message,
      ),
    );
    await tick();
    // Eight slots, but only three worst cases of $0.30 fit in $1 at once.
    expect(gated.stats().started).toBe(3);
    for (let round = 0; round < 10; round += 1) {
      gated.releaseAll();
      await tick();
    }
    const outcomes = await Promise.all(calls);
    expect(gated.stats().most).toBe(3);
    // $0.10 each: once $0.80 is spent, a $0.30 worst case can never fit.
    expect(outcomes.filter((o) => o === 'ok')).toHaveLength(8);
    expect(reservations.totals().spentUsd).toBeCloseTo(0.8, 9);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused[0]?.message).toMatch(
      /^spent \$0\.800 of the \$1\.00 budget; the next call could cost up to \$0\.300/,
    );
    expect(pool.ledger.snapshot().total.usd).toBeCloseTo(0.8, 9);
    await pool.close();
  });
});
