import { describe, expect, it } from 'vitest';
import { agentCallWorstUsd } from '../../../../src/agent/cli/call-worst-case.js';
import { lookUpBuiltInPrice } from '../../../../src/providers/prices.js';

describe('agentCallWorstUsd', () => {
  const sonnet = lookUpBuiltInPrice('claude-sonnet-4-5');
  const gpt = lookUpBuiltInPrice('gpt-5');

  it('counts the body as input at the dearer input rate and the request’s own output cap', () => {
    if (sonnet === undefined) throw new Error('no built-in price for claude-sonnet-4-5');
    const body = { model: 'claude-sonnet-4-5', max_tokens: 32_000, messages: [] };
    const raw = 'x'.repeat(4_000); // 1,000 tokens at ~4 characters each
    const inputRate = Math.max(sonnet.input_per_mtok, sonnet.cache_write_per_mtok ?? 0);
    expect(agentCallWorstUsd('anthropic', body, raw)).toBeCloseTo(
      (1_000 * inputRate + 32_000 * sonnet.output_per_mtok) / 1e6,
      12,
    );
  });

  it('reads the Responses API’s max_output_tokens, and assumes 1024 when a request sets no cap', () => {
    if (gpt === undefined) throw new Error('no built-in price for gpt-5');
    const capped = agentCallWorstUsd('openai', { model: 'gpt-5', max_output_tokens: 5_000 }, '');
    const uncapped = agentCallWorstUsd('openai', { model: 'gpt-5', max_tokens: 5_000 }, '');
    expect(capped).toBeCloseTo((5_000 * gpt.output_per_mtok) / 1e6, 12);
    expect(uncapped).toBeCloseTo((1_024 * gpt.output_per_mtok) / 1e6, 12);
  });

  it('holds nothing for a model without a built-in price or a body it cannot read', () => {
    expect(agentCallWorstUsd('anthropic', { model: 'my-local-model', max_tokens: 10 }, '{}')).toBeNull();
    expect(agentCallWorstUsd('anthropic', undefined, 'not json')).toBeNull();
    expect(agentCallWorstUsd('openai', { max_output_tokens: 10 }, '{}')).toBeNull();
  });
});
