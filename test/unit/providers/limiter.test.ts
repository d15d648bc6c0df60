import { describe, expect, it } from 'vitest';
import type { ModelEntry } from '../../../src/experiment/schema.js';
import { createEndpointLimiter, endpointKey } from '../../../src/providers/limiter.js';

describe('endpointKey', () => {
  it('identifies an endpoint by provider and base URL, binary or argv', () => {
    const env = {};
    expect(endpointKey({ provider: 'anthropic', model: 'a' }, env)).toBe(
      endpointKey({ provider: 'anthropic', model: 'b' }, env),
    );
    expect(endpointKey({ provider: 'openai', model: 'a', base_url: 'http://127.0.0.1:1/v1' }, env)).not.toBe(
      endpointKey({ provider: 'openai', model: 'a' }, env),
    );
    expect(endpointKey({ provider: 'claude-cli' }, { AUTORESEARCH_CLAUDE_BIN: '/x/claude' })).toBe(
      'claude-cli /x/claude',
    );
    expect(endpointKey({ provider: 'command', command: ['a', 'b'] }, env)).toBe('command ["a","b"]');
  });
});

describe('createEndpointLimiter', () => {
  it('takes the smallest limit of the roles sharing an endpoint, capped by the experiment', () => {
    const gen: ModelEntry = { provider: 'anthropic', model: 'a', concurrency: 6 };
    const judge: ModelEntry = { provider: 'anthropic', model: 'b', concurrency: 3 };
    const local: ModelEntry = {
      provider: 'openai',
      model: 'c',
      base_url: 'http://127.0.0.1:9/v1',
      concurrency: 50,
    };
    const limiter = createEndpointLimiter([gen, judge, local], 8, {});
    expect(limiter.limitOf(gen)).toBe(3);
    expect(limiter.limitOf(judge)).toBe(3);
    expect(limiter.limitOf(local)).toBe(8);
  });

  it('never runs more tasks at once than the limit, across roles', async () => {
    const a: ModelEntry = { provider: 'openai', model: 'a', base_url: 'http://127.0.0.1:9/v1' };
    const b: ModelEntry = { ...a, model: 'b' };
    const limiter = createEndpointLimiter([a, b], 2, {});
    let running = 0;
    let peak = 0;
    const task = async () => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((r) => setImmediate(r));
      running--;
    };
    await Promise.all(Array.from({ length: 10 }, (_, i) => limiter.run(i % 2 ? a : b, task)));
    expect(peak).toBe(2);
  });
});
