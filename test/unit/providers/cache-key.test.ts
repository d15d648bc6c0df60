import { describe, expect, it } from 'vitest';
import type { ModelEntry } from '../../../src/experiment/schema.js';
import { canonicalJson } from '../../../src/canonical-json.js';
import { computeCacheKey } from '../../../src/providers/cache-key.js';

const entry: ModelEntry = {
  provider: 'anthropic',
  model: 'claude-sonnet-4-5',
  temperature: 0.7,
  params: { top_p: 0.9 },
};
const request = { messages: [{ role: 'user' as const, content: 'hi' }] };

describe('computeCacheKey', () => {
  it('is stable for the same call and independent of key order', () => {
    expect(canonicalJson({ b: 1, a: [{ d: 2, c: 3 }] })).toBe('{"a":[{"c":3,"d":2}],"b":1}');
    expect(computeCacheKey(entry, request, {})).toBe(
      computeCacheKey({ ...entry, params: { top_p: 0.9 } }, { ...request }, {}),
    );
    expect(computeCacheKey(entry, request, {})).toMatch(/^[0-9a-f]{64}$/);
  });

  it('changes with every input that changes the answer, including the sample index', () => {
    const base = computeCacheKey(entry, request, {});
    const variants = [
      computeCacheKey({ ...entry, model: 'claude-opus-4-1' }, request, {}),
      computeCacheKey({ ...entry, temperature: 0 }, request, {}),
      computeCacheKey({ ...entry, params: { top_p: 1 } }, request, {}),
      computeCacheKey({ ...entry, base_url: 'http://127.0.0.1:1' }, request, {}),
      computeCacheKey(entry, { ...request, system: 'be terse' }, {}),
      computeCacheKey(entry, { ...request, maxTokens: 10 }, {}),
      computeCacheKey(entry, { messages: [{ role: 'user', content: 'hi ' }] }, {}),
      computeCacheKey(entry, { ...request, sampleIndex: 1 }, {}),
      computeCacheKey(entry, request, { ANTHROPIC_BASE_URL: 'http://127.0.0.1:2' }),
    ];
    expect(new Set([base, ...variants]).size).toBe(variants.length + 1);
    expect(computeCacheKey(entry, { ...request, sampleIndex: 0 }, {})).toBe(base);
  });

  it('does not depend on API keys', () => {
    expect(computeCacheKey(entry, request, { ANTHROPIC_API_KEY: 'a' })).toBe(
      computeCacheKey(entry, request, { ANTHROPIC_API_KEY: 'b' }),
    );
  });
});
