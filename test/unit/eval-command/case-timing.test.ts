import { describe, expect, it } from 'vitest';
import { timeGenerations } from '../../../src/eval-command/case-timing.js';
import type { Case, PromptShape } from '../../../src/experiment/types.js';
import { createCostLedger } from '../../../src/providers/ledger.js';
import type { ModelPool } from '../../../src/providers/model-pool.js';
import type { CompletionRequest, ModelClient } from '../../../src/providers/types.js';

function testCase(id: string, topic: string): Case {
  return {
    id,
    vars: { topic },
    checks: [],
    expectations: [],
    split: 'train',
    source: { file: 'cases.yaml' },
  };
}

/** A pool whose calls take `latency(text)` ms by their own measure. */
function fakePool(latency: (text: string) => number): ModelPool & { calls: CompletionRequest[] } {
  const calls: CompletionRequest[] = [];
  const client = (role: 'generator' | 'judge'): ModelClient => ({
    role,
    entry: { provider: 'sim' },
    simulated: true,
    concurrency: 4,
    async complete(request) {
      calls.push(request);
      const text = request.messages[0]?.content ?? '';
      return {
        text: 'out',
        usage: { inputTokens: 1, outputTokens: 1 },
        costUsd: 0,
        latencyMs: latency(text),
      };
    },
  });
  return {
    calls,
    client,
    has: () => true,
    ledger: createCostLedger(),
    holdSpend: async () => undefined,
    close: async () => undefined,
  };
}

/** A path prompt: one user part. */
const PATH_PROMPT: PromptShape = {
  parts: [{ name: 'prompt', role: 'user', text: 'Explain {{ topic }}.', path: '/p.md', optimise: true }],
};

describe('timeGenerations', () => {
  const cases = [testCase('a', 'tides'), testCase('b', 'moons'), testCase('twin', 'moons')];

  it('adds each generator call’s own latency to the case whose rendered prompt it sent', async () => {
    const inner = fakePool((text) => (text.includes('tides') ? 1500 : 250));
    const timed = timeGenerations(inner, 'Explain {{ topic }}.', PATH_PROMPT, cases);
    const generator = timed.pool.client('generator');
    await generator.complete({ messages: [{ role: 'user', content: 'Explain tides.' }], sampleIndex: 0 });
    await generator.complete({ messages: [{ role: 'user', content: 'Explain tides.' }], sampleIndex: 1 });
    await generator.complete({ messages: [{ role: 'user', content: 'Explain moons.' }] });
    // Cases rendering to the same text cannot be told apart: each is charged the call.
    expect(timed.seconds()).toEqual({ a: 3, b: 0.25, twin: 0.25 });
    expect(timed.pool.client('generator')).toBe(generator);
  });

  it('leaves other roles, unknown prompts and the pool’s ledger alone', async () => {
    const inner = fakePool(() => 1000);
    const timed = timeGenerations(inner, 'Explain {{ topic }}.', PATH_PROMPT, cases);
    await timed.pool.client('judge').complete({ messages: [{ role: 'user', content: 'Explain tides.' }] });
    await timed.pool
      .client('generator')
      .complete({ messages: [{ role: 'user', content: 'something else' }] });
    expect(timed.seconds()).toEqual({ a: 0, b: 0, twin: 0 });
    expect(inner.calls).toHaveLength(2);
    expect(timed.pool.ledger).toBe(inner.ledger);
  });
});

describe('timeGenerations with prompt parts', () => {
  it('matches a call to its case by the whole conversation it sends', async () => {
    const shape: PromptShape = {
      parts: [
        { name: 'system', role: 'system', text: 'Be brief.', path: '/s.md', optimise: true },
        { name: 'messages[0]', role: 'user', text: 'Topic: {{topic}}', optimise: false },
      ],
    };
    const withHistory: Case = {
      ...testCase('h', 'tides'),
      messages: [
        { role: 'assistant', content: 'Which aspect?' },
        { role: 'user', content: 'Spring tides.' },
      ],
    };
    const inner = fakePool(() => 500);
    const timed = timeGenerations(inner, 'Be brief.', shape, [testCase('a', 'tides'), withHistory]);
    await timed.pool.client('generator').complete({
      system: 'Be brief.',
      messages: [{ role: 'user', content: 'Topic: tides' }, ...(withHistory.messages ?? [])],
    });
    expect(timed.seconds()).toEqual({ a: 0, h: 0.5 });
  });
});
