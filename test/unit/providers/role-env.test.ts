import { describe, expect, it } from 'vitest';
import { envForEntry, withoutKeys } from '../../../src/providers/role-env.js';

const ENV = {
  PATH: '/bin',
  OPENAI_API_KEY: 'o',
  ANTHROPIC_API_KEY: 'a',
  ANTHROPIC_AUTH_TOKEN: 't',
  CODEX_API_KEY: 'c',
  HOUSE_KEY: 'h',
};
const MODELS = {
  generator: { provider: 'openai' as const, model: 'house', api_key_env: 'HOUSE_KEY' },
  mutator: { provider: 'openai' as const, model: 'gpt-4o-mini' },
  judge: { provider: 'anthropic' as const, model: 'claude-sonnet-4-5' },
};

describe('envForEntry', () => {
  it("keeps an HTTP entry's own key and drops the other roles'", () => {
    expect(envForEntry(ENV, MODELS, MODELS.generator)).toEqual({ PATH: '/bin', HOUSE_KEY: 'h' });
    expect(envForEntry(ENV, MODELS, MODELS.judge)).toEqual({ PATH: '/bin', ANTHROPIC_API_KEY: 'a' });
  });

  it('keeps the variables an agent CLI reads its login from, and nothing of the other vendor', () => {
    // HOUSE_KEY is no model's key once the CLI replaces the generator that named it.
    const claude = { provider: 'claude-cli' as const };
    expect(envForEntry(ENV, { ...MODELS, generator: claude }, claude)).toEqual({
      PATH: '/bin',
      ANTHROPIC_API_KEY: 'a',
      ANTHROPIC_AUTH_TOKEN: 't',
      HOUSE_KEY: 'h',
    });
    const codex = { provider: 'codex-cli' as const };
    expect(envForEntry(ENV, { ...MODELS, generator: codex }, codex)).toEqual({
      PATH: '/bin',
      OPENAI_API_KEY: 'o',
      CODEX_API_KEY: 'c',
      HOUSE_KEY: 'h',
    });
  });
});

describe('withoutKeys', () => {
  it('drops every model key and the vendors’ own, whoever uses them', () => {
    expect(withoutKeys(ENV, MODELS)).toEqual({ PATH: '/bin' });
  });
});
