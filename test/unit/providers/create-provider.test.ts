import { describe, expect, it } from 'vitest';
import { PROVIDERS } from '../../../src/experiment/schema.js';
import { createProvider } from '../../../src/providers/create-provider.js';

describe('createProvider', () => {
  it.each(PROVIDERS)('builds the %s adapter', async (name) => {
    const provider = await createProvider(
      { provider: name, model: 'm', ...(name === 'command' ? { command: ['prog'] } : {}) },
      { env: {} },
    );
    expect(provider.name).toBe(name);
    expect(provider.model).toBe('m');
  });

  it('serves the simulator offline, labelled as simulated', async () => {
    const provider = await createProvider({ provider: 'sim' }, { env: {} });
    const result = await provider.complete({
      messages: [{ role: 'user', content: 'Write a subject line.' }],
    });
    expect(result.simulated).toBe(true);
    expect(result.costUsd).toBe(0);
  });
});
