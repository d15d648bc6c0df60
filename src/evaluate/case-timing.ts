/**
 * Per-case generator time for reports (JUnit `time`): a model pool whose generator client adds
 * each call's own latency to the case whose rendered prompt it sent. Latency is the adapter's
 * measure of the call, not time spent queued behind the concurrency limit, so cases evaluated
 * in parallel are not charged for each other. The rendered prompt is the call's one user
 * message (SPEC 3); cases rendering to the same text share their time.
 */
import { renderTemplate } from '../experiment/template.js';
import type { Case } from '../experiment/types.js';
import type { ModelPool } from '../providers/model-pool.js';
import type { ModelClient } from '../providers/types.js';

export interface TimedPool {
  pool: ModelPool;
  /** Seconds per case id, summed over its samples. */
  seconds(): Record<string, number>;
}

export function timeGenerations(pool: ModelPool, prompt: string, cases: readonly Case[]): TimedPool {
  const casesByText = new Map<string, string[]>();
  for (const testCase of cases) {
    const text = renderTemplate(prompt, testCase.vars);
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
        const text = request.messages.length === 1 ? request.messages[0]?.content : undefined;
        for (const id of (text === undefined ? undefined : casesByText.get(text)) ?? []) {
          totals[id] = (totals[id] ?? 0) + result.latencyMs / 1000;
        }
        return result;
      },
    };
    return generator;
  };
  return {
    pool: {
      client: (role) => (role === 'generator' ? timedGenerator() : pool.client(role)),
      has: (role) => pool.has(role),
      get ledger() {
        return pool.ledger;
      },
      close: () => pool.close(),
    },
    seconds: () => ({ ...totals }),
  };
}
