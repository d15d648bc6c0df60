import { describe, expect, it } from 'vitest';
import type { ModelEntry } from '../../../src/experiment/schema.js';
import { apiKeyEnvName, keyIsRequired, readApiKey, resolveBaseUrl } from '../../../src/providers/env.js';

const anthropic: ModelEntry = { provider: 'anthropic', model: 'claude-sonnet-4-5' };
const openai: ModelEntry = { provider: 'openai', model: 'gpt-4o' };

describe('apiKeyEnvName', () => {
  it('uses the default variable per provider, api_key_env first, none for the others', () => {
    expect(apiKeyEnvName(anthropic)).toBe('ANTHROPIC_API_KEY');
    expect(apiKeyEnvName(openai)).toBe('OPENAI_API_KEY');
    expect(apiKeyEnvName({ ...openai, api_key_env: 'OPENROUTER_KEY' })).toBe('OPENROUTER_KEY');
    expect(apiKeyEnvName({ provider: 'sim' })).toBeUndefined();
    expect(apiKeyEnvName({ provider: 'claude-cli' })).toBeUndefined();
  });
});

describe('resolveBaseUrl', () => {
  it('prefers the entry, then the environment, then the default', () => {
    expect(resolveBaseUrl(anthropic, {})).toBe('https://api.anthropic.com');
    expect(resolveBaseUrl(openai, {})).toBe('https://api.openai.com/v1');
    const env = { ANTHROPIC_BASE_URL: 'http://127.0.0.1:9/', OPENAI_BASE_URL: 'http://127.0.0.1:8/v1' };
    expect(resolveBaseUrl(anthropic, env)).toBe('http://127.0.0.1:9');
    expect(resolveBaseUrl(openai, env)).toBe('http://127.0.0.1:8/v1');
    expect(resolveBaseUrl({ ...openai, base_url: 'http://localhost:11434/v1' }, env)).toBe(
      'http://localhost:11434/v1',
    );
    expect(resolveBaseUrl({ ...anthropic, base_url: 'https://proxy.example/' }, env)).toBe(
      'https://proxy.example',
    );
  });

  it('ignores a blank environment variable', () => {
    expect(resolveBaseUrl(openai, { OPENAI_BASE_URL: '  ' })).toBe('https://api.openai.com/v1');
  });
});

describe('keyIsRequired', () => {
  it('requires a key for Anthropic and the public OpenAI endpoint only', () => {
    expect(keyIsRequired(anthropic)).toBe(true);
    expect(keyIsRequired(openai)).toBe(true);
    expect(keyIsRequired({ ...openai, base_url: 'http://localhost:11434/v1' })).toBe(false);
    expect(keyIsRequired(openai, { OPENAI_BASE_URL: 'http://localhost:1234/v1' })).toBe(false);
    expect(
      keyIsRequired({ ...openai, base_url: 'https://openrouter.ai/api/v1', api_key_env: 'OR_KEY' }),
    ).toBe(true);
    expect(keyIsRequired({ provider: 'sim' })).toBe(false);
    expect(keyIsRequired({ provider: 'command', command: ['x'] })).toBe(false);
  });
});

describe('readApiKey', () => {
  it('reads the named variable and treats blank as missing', () => {
    expect(readApiKey(anthropic, { ANTHROPIC_API_KEY: 'k' })).toBe('k');
    expect(readApiKey(anthropic, { ANTHROPIC_API_KEY: ' ' })).toBeUndefined();
    expect(readApiKey({ provider: 'sim' }, { ANTHROPIC_API_KEY: 'k' })).toBeUndefined();
  });
});
