import { describe, expect, it } from 'vitest';
import {
  costOf,
  costOrNull,
  estimatePrice,
  normaliseModelName,
  resolvePrice,
  type Price,
} from '../../../src/providers/prices.js';

describe('resolvePrice', () => {
  it('finds well-known models, dated or aliased', () => {
    expect(resolvePrice({ provider: 'anthropic', model: 'claude-sonnet-4-5-20250929' })).toMatchObject({
      input_per_mtok: 3,
      output_per_mtok: 15,
    });
    expect(resolvePrice({ provider: 'anthropic', model: 'claude-opus-4-1' })?.output_per_mtok).toBe(75);
    expect(resolvePrice({ provider: 'anthropic', model: 'claude-3-5-haiku-latest' })?.input_per_mtok).toBe(
      0.8,
    );
    expect(resolvePrice({ provider: 'openai', model: 'gpt-4o-mini-2024-07-18' })?.input_per_mtok).toBe(0.15);
    expect(resolvePrice({ provider: 'openai', model: 'gpt-4o-2024-08-06' })?.input_per_mtok).toBe(2.5);
    expect(resolvePrice({ provider: 'openai', model: 'openai/gpt-4.1-mini' })?.output_per_mtok).toBe(1.6);
    expect(resolvePrice({ provider: 'claude-cli', model: 'claude-haiku-4-5' })?.input_per_mtok).toBe(1);
  });

  it('lets the entry override, makes sim free and leaves unknown models unpriced', () => {
    const own = { input_per_mtok: 0.01, output_per_mtok: 0.02 };
    expect(resolvePrice({ provider: 'openai', model: 'gpt-4o', price: own })).toBe(own);
    expect(resolvePrice({ provider: 'sim' })).toEqual({ input_per_mtok: 0, output_per_mtok: 0 });
    expect(resolvePrice({ provider: 'openai', model: 'llama3.1:8b' })).toBeUndefined();
    expect(resolvePrice({ provider: 'command', command: ['x'], model: 'gpt-4o' })).toBeUndefined();
    expect(resolvePrice({ provider: 'anthropic' })).toBeUndefined();
  });
});

describe('costOf', () => {
  it('prices tokens per million', () => {
    const p = { input_per_mtok: 3, output_per_mtok: 15 };
    expect(costOf(p, { inputTokens: 1_000_000, outputTokens: 0 })).toBe(3);
    expect(costOf(p, { inputTokens: 1000, outputTokens: 2000 })).toBeCloseTo(0.033, 10);
    expect(costOrNull(undefined, { inputTokens: 1, outputTokens: 1 })).toBeNull();
  });

  it('bills prompt-cache writes and reads at the provider’s rates, and at the input price without them', () => {
    const sonnet = resolvePrice({ provider: 'anthropic', model: 'claude-sonnet-4-5' });
    expect(sonnet).toEqual({
      input_per_mtok: 3,
      output_per_mtok: 15,
      cache_write_per_mtok: 3.75,
      cache_read_per_mtok: 0.3,
    });
    // 1M input: 200k written, 600k read, 200k plain → 0.75 + 0.18 + 0.6.
    const usage = {
      inputTokens: 1_000_000,
      outputTokens: 0,
      cacheWriteTokens: 200_000,
      cacheReadTokens: 600_000,
    };
    expect(costOf(sonnet as Price, usage)).toBeCloseTo(1.53, 10);
    const gpt = resolvePrice({ provider: 'openai', model: 'gpt-4.1' }) as Price;
    expect(gpt.cache_write_per_mtok).toBeUndefined();
    expect(costOf(gpt, { inputTokens: 1_000_000, outputTokens: 0, cacheReadTokens: 1_000_000 })).toBeCloseTo(
      0.5,
      10,
    );
    // An entry's own price without cache rates: cached input is billed as input.
    expect(costOf({ input_per_mtok: 2, output_per_mtok: 8 }, usage)).toBeCloseTo(2, 10);
  });

  it('prices Claude Code aliases, and plans a claude-cli entry without a model at its default', () => {
    // The aliases name what Claude Code 2.1.332 sends: claude-sonnet-5-5, claude-opus-5-5, claude-haiku-5-5.
    expect(resolvePrice({ provider: 'claude-cli', model: 'opus' })).toMatchObject({
      input_per_mtok: 4,
      output_per_mtok: 20,
      cache_write_per_mtok: 5,
      cache_read_per_mtok: 0.2,
    });
    expect(resolvePrice({ provider: 'claude-cli', model: 'sonnet' })?.input_per_mtok).toBe(2);
    // Haiku 5.5 has no single published price: unpriced, never a guess.
    expect(resolvePrice({ provider: 'claude-cli', model: 'haiku' })).toBeUndefined();
    expect(resolvePrice({ provider: 'anthropic', model: 'haiku' })).toBeUndefined();
    expect(resolvePrice({ provider: 'claude-cli' })).toBeUndefined();
    expect(estimatePrice({ provider: 'claude-cli' })).toEqual({
      price: expect.objectContaining({ input_per_mtok: 4, output_per_mtok: 20 }),
      note: expect.stringContaining('estimated at claude-opus-5-5 prices'),
    });
    expect(estimatePrice({ provider: 'claude-cli', model: 'sonnet' })?.note).toContain('Claude Code reports');
    expect(
      estimatePrice({ provider: 'claude-cli', price: { input_per_mtok: 0, output_per_mtok: 0 } }),
    ).toEqual({
      price: { input_per_mtok: 0, output_per_mtok: 0 },
    });
    expect(estimatePrice({ provider: 'codex-cli' })).toBeUndefined();
  });

  it('normalises names', () => {
    expect(normaliseModelName(' Claude-Sonnet-4-20250514 ')).toBe('claude-sonnet-4');
  });
});
