/**
 * Per-case generator time for reports (JUnit `time`): a model pool whose generator client adds
 * each call's own latency to the case whose rendered prompt it sent. Latency is the adapter's
 * measure of the call, not time spent queued behind the concurrency limit, so cases evaluated
 * in parallel are not charged for each other. A call is matched to its case by the messages
 * it sends (render-request.ts); cases rendering to the same messages share their time.
 */
import type { Case, PromptShape } from '../experiment/types.js';
import type { ModelPool } from '../providers/model-pool.js';
import type { ChatMessage, ModelClient } from '../providers/types.js';
import { renderRequest } from '../experiment/render-request.js';

export interface TimedPool {
  pool: ModelPool;
  /** Seconds per case id, summed over its samples. */
  seconds(): Record<string, number>;
}

export function timeGenerations(
  pool: ModelPool,
  prompt: string,
  shape: PromptShape,
  cases: readonly Case[],
): TimedPool {
  const keyOf = (messages: readonly ChatMessage[]) => JSON.stringify(messages);
  const casesByText = new Map<string, string[]>();
  for (const testCase of cases) {
    const text = keyOf(renderRequest({ shape, prompt, testCase }).messages);
    casesByText.set(text, [...(casesByText.get(text) ?? []), testCase.id]);
  }
  const totals: Record<string, number> = Object.fromEntries(cases.map((c) => [c.id, 0]));
  let generator: ModelClient | undefined;
  const timedGenerator = (): ModelClient => {
    const inner = pool.client('generator');
    generator ??= {
      role: inner.role,
      entry: inner.entry,
      simulated: inner.simulated,
      concurrency: inner.concurrency,
      async complete(request) {
        const result = await inner.complete(request);
        for (const id of casesByText.get(keyOf(request.messages)) ?? []) {
          totals[id] = (totals[id] ?? 0) + result.latencyMs / 1000;
        }
        return result;
      },
    };
    return generator;
  };
  return {
    pool: {
      client: (role, member) => (role === 'generator' ? timedGenerator() : pool.client(role, member)),
      has: (role, member) => pool.has(role, member),
      get ledger() {
        return pool.ledger;
      },
      holdSpend: (worstUsd) => pool.holdSpend(worstUsd),
      close: () => pool.close(),
      ...(pool.batchCache === undefined ? {} : { batchCache: pool.batchCache }),
    },
    seconds: () => ({ ...totals }),
  };
}
