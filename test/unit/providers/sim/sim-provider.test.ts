import { describe, expect, test } from 'vitest';
import { createSimProvider } from '../../../../src/providers/sim/sim-provider.js';
import { DEFAULT_SIM_MODEL, simulateCompletion } from '../../../../src/providers/sim/simulate.js';
import { ProviderError } from '../../../../src/providers/types.js';

const PROMPT = 'Write a cold email about Usage-based billing for CTO at a 50-person SaaS.';

describe('createSimProvider', () => {
  test('answers like simulateCompletion, labelled simulated, free and fast', async () => {
    const provider = createSimProvider({ provider: 'sim', model: 'sim-x' });
    expect(provider.name).toBe('sim');
    expect(provider.model).toBe('sim-x');
    const request = {
      messages: [{ role: 'user' as const, content: PROMPT }],
      temperature: 0.7,
      sampleIndex: 1,
    };
    const result = await provider.complete(request);
    const expected = simulateCompletion({ ...request, model: 'sim-x' });
    expect(result.text).toBe(expected.text);
    expect(result.usage).toEqual(expected.usage);
    expect(result.simulated).toBe(true);
    expect(result.costUsd).toBe(0);
    expect(result.stopReason).toBe('end_turn');
    expect(result.latencyMs).toBeGreaterThanOrEqual(0);
    expect(result.latencyMs).toBeLessThan(1000);
  });

  test('defaults the model name and takes temperature and system from the entry', async () => {
    const provider = createSimProvider({ provider: 'sim', temperature: 0.3, system: 'You write emails.' });
    expect(provider.model).toBe(DEFAULT_SIM_MODEL);
    const messages = [{ role: 'user' as const, content: PROMPT }];
    const result = await provider.complete({ messages });
    expect(result.text).toBe(
      simulateCompletion({
        messages,
        model: DEFAULT_SIM_MODEL,
        temperature: 0.3,
        system: 'You write emails.',
      }).text,
    );
  });

  test('cuts a reply longer than max_tokens and says so', async () => {
    const provider = createSimProvider({ provider: 'sim' });
    const result = await provider.complete({ messages: [{ role: 'user', content: PROMPT }], maxTokens: 10 });
    expect(result.stopReason).toBe('max_tokens');
    expect(result.text.length).toBe(40);
    expect(result.usage.outputTokens).toBe(10);
  });

  test('refuses an already aborted call', async () => {
    const provider = createSimProvider({ provider: 'sim' });
    const controller = new AbortController();
    controller.abort();
    const call = provider.complete({
      messages: [{ role: 'user', content: PROMPT }],
      signal: controller.signal,
    });
    await expect(call).rejects.toBeInstanceOf(ProviderError);
    await expect(call).rejects.toMatchObject({ kind: 'aborted' });
  });
});
