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

  it('keeps the key a plain conversation had before prompt shapes (docs/design/prompt-shapes.md), so a resumed run still hits', () => {
    const conversation = {
      system: 's',
      messages: [
        { role: 'user' as const, content: 'hi' },
        { role: 'assistant' as const, content: 'a' },
        { role: 'user' as const, content: 'b' },
      ],
    };
    // Computed by the cache key of the commit before prompt shapes.
    expect(computeCacheKey(entry, conversation, {})).toBe(
      'c0b710c31b0d26cac6b75777148af893a507ee5cec15394d22f65b2bb9cd3299',
    );
    expect(computeCacheKey(entry, { ...conversation, tools: [] }, {})).toBe(
      computeCacheKey(entry, conversation, {}),
    );
  });

  it('covers tools, the output schema, tool calls and the call a tool turn answers', () => {
    const tool = { name: 'lookup', parameters: { type: 'object' } };
    const call = { id: 'c1', name: 'lookup', arguments: { n: 1 } };
    const turns = (over: { id?: string; args?: Record<string, unknown>; answers?: string } = {}) => ({
      messages: [
        { role: 'user' as const, content: 'hi' },
        {
          role: 'assistant' as const,
          content: '',
          toolCalls: [{ ...call, id: over.id ?? 'c1', arguments: over.args ?? call.arguments }],
        },
        { role: 'tool' as const, toolCallId: over.answers ?? 'c1', content: 'r' },
      ],
    });
    const keys = [
      computeCacheKey(entry, request, {}),
      computeCacheKey(entry, { ...request, tools: [tool] }, {}),
      computeCacheKey(entry, { ...request, tools: [{ ...tool, description: 'd' }] }, {}),
      computeCacheKey(entry, { ...request, output: { name: 'o', schema: { type: 'object' } } }, {}),
      computeCacheKey(entry, { ...request, output: { name: 'o', schema: { type: 'array' } } }, {}),
      computeCacheKey(entry, turns(), {}),
      computeCacheKey(entry, turns({ id: 'c2' }), {}),
      computeCacheKey(entry, turns({ args: { n: 2 } }), {}),
      computeCacheKey(entry, turns({ answers: 'c9' }), {}),
    ];
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('does not depend on API keys', () => {
    expect(computeCacheKey(entry, request, { ANTHROPIC_API_KEY: 'a' })).toBe(
      computeCacheKey(entry, request, { ANTHROPIC_API_KEY: 'b' }),
    );
  });
});
