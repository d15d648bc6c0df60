import { describe, expect, it } from 'vitest';
import { resolveStandaloneSettings } from '../../../src/judge/standalone-settings.js';

const base = { stdinText: '', modelFlag: undefined, env: {}, command: 'judge' };

describe('resolveStandaloneSettings', () => {
  it('prefers --model, then stdin JSON, then a key found in the environment', () => {
    expect(
      resolveStandaloneSettings({ ...base, modelFlag: 'sim', stdinText: '{"provider":"openai"}' }),
    ).toEqual({ provider: 'sim' });
    expect(resolveStandaloneSettings({ ...base, stdinText: '{"provider":"sim","samples":2}' })).toEqual({
      provider: 'sim',
      samples: 2,
    });
    expect(resolveStandaloneSettings({ ...base, env: { ANTHROPIC_API_KEY: 'k' } })).toMatchObject({
      provider: 'anthropic',
    });
    expect(resolveStandaloneSettings({ ...base, env: { OPENAI_API_KEY: 'k' } })).toMatchObject({
      provider: 'openai',
    });
  });

  it('refuses with a hint when there is no model or no key', () => {
    expect(() => resolveStandaloneSettings(base)).toThrow(/no model for `autoresearch judge`/);
    expect(() => resolveStandaloneSettings({ ...base, modelFlag: 'anthropic:claude-x' })).toThrow(
      /ANTHROPIC_API_KEY is not set/,
    );
    expect(() => resolveStandaloneSettings({ ...base, stdinText: '{oops' })).toThrow(/not valid JSON/);
  });
});
