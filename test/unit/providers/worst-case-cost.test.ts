import { describe, expect, it } from 'vitest';
import { estimateInputTokens, worstCaseUsd } from '../../../src/providers/worst-case-cost.js';

const PRICE = { input_per_mtok: 2, output_per_mtok: 10, cache_write_per_mtok: 2.5 };

describe('worstCaseUsd', () => {
  it('prices the estimated input at the dearer input rate and the output at max_tokens', () => {
    const request = {
      system: 'x'.repeat(400),
      messages: [{ role: 'user' as const, content: 'y'.repeat(800) }],
    };
    const input = estimateInputTokens(request);
    expect(input).toBe(100 + 200 + 16);
    const entry = { provider: 'anthropic' as const, model: 'house', price: PRICE, max_tokens: 500 };
    expect(worstCaseUsd(entry, request)).toBeCloseTo((input * 2.5 + 500 * 10) / 1e6, 12);
    // The request's own limit wins over the entry's; without either, the adapters' 1024.
    expect(worstCaseUsd(entry, { ...request, maxTokens: 50 })).toBeCloseTo((input * 2.5 + 50 * 10) / 1e6, 12);
    const { max_tokens: _, ...unlimited } = entry;
    expect(worstCaseUsd(unlimited, request)).toBeCloseTo((input * 2.5 + 1024 * 10) / 1e6, 12);
  });

  it('reserves nothing for calls the run cannot price or that bill nothing', () => {
    const request = { messages: [{ role: 'user' as const, content: 'hi' }] };
    expect(worstCaseUsd({ provider: 'openai', model: 'my-local-model' }, request)).toBeNull();
    expect(worstCaseUsd({ provider: 'command', command: ['./m.sh'], price: PRICE }, request)).toBeNull();
    expect(worstCaseUsd({ provider: 'sim' }, request)).toBe(0);
  });
});
