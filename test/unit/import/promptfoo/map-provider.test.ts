import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { listProviders, mapProvider } from '../../../../src/import/promptfoo/map-provider.js';

const root = mkdtempSync(join(tmpdir(), 'ar-pf-provider-'));
const configDir = join(root, 'evals');
mkdirSync(join(configDir, 'scripts'), { recursive: true });
writeFileSync(join(configDir, 'scripts', 'model.py'), 'print("hi")\n');
afterAll(() => rmSync(root, { recursive: true, force: true }));
const ctx = { configDir, projectRoot: root };

function mapId(id: string, options: Record<string, unknown> = {}) {
  return mapProvider({ id, options, where: 'providers[0]' }, ctx);
}

describe('listProviders', () => {
  it('accepts every form promptfoo does', () => {
    expect(listProviders('openai:gpt-4o', 'providers').specs.map((s) => s.id)).toEqual(['openai:gpt-4o']);
    const list = listProviders(
      [
        'openai:gpt-4o',
        { id: 'anthropic:messages:claude-sonnet-4-5', label: 'sonnet' },
        { 'openai:gpt-4.1': { config: { temperature: 0 } } },
      ],
      'providers',
    );
    expect(list.specs.map((s) => [s.id, s.where])).toEqual([
      ['openai:gpt-4o', 'providers[0]'],
      ['anthropic:messages:claude-sonnet-4-5', 'providers[1]'],
      ['openai:gpt-4.1', 'providers[2]'],
    ]);
    expect(list.specs[2]?.options).toEqual({ config: { temperature: 0 } });
    const map = listProviders({ 'openai:a': {}, 'openai:b': { label: 'b' } }, 'providers');
    expect(map.specs.map((s) => s.id)).toEqual(['openai:a', 'openai:b']);
  });

  it('reports a provider without an id', () => {
    const { specs, unmapped } = listProviders([{ label: 'x', config: {} }], 'providers');
    expect(specs).toEqual([]);
    expect(unmapped[0]?.subject).toBe('a provider without an id');
  });
});

describe('mapProvider', () => {
  it.each([
    ['openai:gpt-4o-mini', { provider: 'openai', model: 'gpt-4o-mini' }],
    ['openai:chat:gpt-4.1', { provider: 'openai', model: 'gpt-4.1' }],
    ['anthropic:messages:claude-sonnet-4-5', { provider: 'anthropic', model: 'claude-sonnet-4-5' }],
    ['anthropic:claude-3-5-haiku-latest', { provider: 'anthropic', model: 'claude-3-5-haiku-latest' }],
    [
      'ollama:chat:llama3.1:8b',
      { provider: 'openai', model: 'llama3.1:8b', base_url: 'http://localhost:11434/v1' },
    ],
  ])('maps %s', (id, entry) => {
    expect(mapId(id).model?.entry).toEqual(entry);
  });

  it('carries temperature, max_tokens, endpoints, key variable names and API parameters', () => {
    const result = mapId('openai:gpt-4o', {
      label: 'gateway',
      config: {
        temperature: 0.2,
        max_tokens: 300,
        apiBaseUrl: 'https://gw.example.com/v1/',
        apiKeyEnvar: 'GW_KEY',
        top_p: 0.9,
        seed: 3,
      },
    });
    expect(result.model).toEqual({
      entry: {
        provider: 'openai',
        model: 'gpt-4o',
        temperature: 0.2,
        max_tokens: 300,
        base_url: 'https://gw.example.com/v1',
        api_key_env: 'GW_KEY',
        params: { top_p: 0.9, seed: 3 },
      },
      origin: 'openai:gpt-4o (gateway)',
      where: 'providers[0]',
      shape: {},
    });
    expect(result.unmapped).toEqual([]);
    expect(
      mapId('openai:chat:mistral', { config: { apiHost: 'llm.example.org' } }).model?.entry.base_url,
    ).toBe('https://llm.example.org/v1');
    expect(
      mapId('anthropic:messages:claude-x', { config: { apiBaseUrl: 'https://proxy.example.com/v1' } }).model
        ?.entry.base_url,
    ).toBe('https://proxy.example.com');
  });

  it('sets response_format and tools aside for the output schema and the tools file, and reports tool_choice', () => {
    const tools = [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object' } } }];
    const format = { type: 'json_schema', json_schema: { name: 'answer', schema: { type: 'object' } } };
    const result = mapId('openai:gpt-4o', {
      config: { response_format: format, tools, tool_choice: 'required', seed: 1 },
    });
    expect(result.model?.entry).toEqual({ provider: 'openai', model: 'gpt-4o', params: { seed: 1 } });
    expect(result.model?.shape).toEqual({ response_format: format, tools });
    expect(result.unmapped.map((u) => u.subject)).toEqual(['provider config `tool_choice`']);
  });

  it('never copies an API key, and says so without repeating it', () => {
    const result = mapId('openai:gpt-4o', { config: { apiKey: 'sk-secret-value' } });
    expect(result.model?.entry).toEqual({ provider: 'openai', model: 'gpt-4o' });
    expect(JSON.stringify(result)).not.toContain('sk-secret-value');
    expect(result.unmapped[0]?.subject).toBe('an API key written in the config');
  });

  it('reports settings the schema refuses and keeps the rest', () => {
    const result = mapId('openai:gpt-4o', { config: { temperature: 3.5, organization: 'acme' }, delay: 100 });
    expect(result.model?.entry).toEqual({ provider: 'openai', model: 'gpt-4o' });
    expect(result.unmapped.map((u) => u.subject)).toEqual([
      'provider config `organization`',
      'provider option `delay`',
      'provider setting `temperature`',
    ]);
  });

  it('maps exec: to a command argv without a shell, re-pointing files next to the config', () => {
    const result = mapId("exec: python scripts/model.py --style 'very short'");
    expect(result.model?.entry).toEqual({
      provider: 'command',
      command: ['python', './evals/scripts/model.py', '--style', 'very short'],
    });
    expect(result.notes[0]).toContain('stdin');
    const plain = mapProvider(
      { id: 'exec:python other.py', options: {}, where: 'p' },
      { configDir: root, projectRoot: root },
    );
    expect(plain.model?.entry.command).toEqual(['python', 'other.py']);
  });

  it.each([
    ['exec: python a.py | tee log', 'without a shell'],
    ['vertex:gemini-1.5-pro', 'OpenAI API'],
    ['bedrock:anthropic.claude-3', 'OpenAI API'],
    ['https://api.example.com/generate', 'OpenAI API'],
    ['file://provider.js', 'OpenAI API'],
    ['openai:embedding:text-embedding-3-small', 'chat models'],
    ['openai:completion:davinci', 'chat models'],
  ])('reports %s as not mappable', (id, why) => {
    const result = mapId(id);
    expect(result.model).toBeUndefined();
    expect(result.unmapped[0]?.subject).toBe(`provider \`${id}\``);
    expect(result.unmapped[0]?.why).toContain(why);
  });
});
