import { describe, expect, it } from 'vitest';
import {
  parseModelFlag,
  parseSettingsJson,
  proxiedSettings,
  settingsToEntry,
} from '../../../src/protocol/model-settings.js';

describe('model settings', () => {
  it('parses the stdin JSON strictly', () => {
    expect(
      parseSettingsJson(
        '{"provider":"anthropic","model":"m","temperature":0,"samples":2,"params":{"top_p":1}}',
      ),
    ).toEqual({
      ok: true,
      settings: { provider: 'anthropic', model: 'm', temperature: 0, samples: 2, params: { top_p: 1 } },
    });
    expect(parseSettingsJson('{"provider":"nope"}')).toMatchObject({ ok: false, message: /provider/ });
    expect(parseSettingsJson('{"provider":"sim","bogus":1}').ok).toBe(false);
    expect(parseSettingsJson('not json')).toMatchObject({ ok: false, message: /not valid JSON/ });
  });

  it('parses --model provider:model', () => {
    expect(parseModelFlag('anthropic:claude-sonnet-4-5')).toEqual({
      ok: true,
      settings: { provider: 'anthropic', model: 'claude-sonnet-4-5' },
    });
    expect(parseModelFlag('sim')).toEqual({ ok: true, settings: { provider: 'sim' } });
    expect(parseModelFlag('openai')).toMatchObject({ ok: false, message: /name the model/ });
    expect(parseModelFlag('command:x')).toMatchObject({ ok: false });
    expect(parseModelFlag('gemini:x')).toMatchObject({ ok: false, message: /must be one of/ });
  });

  it('drops judge-only keys when making a model entry', () => {
    expect(settingsToEntry({ provider: 'sim', samples: 3, concurrency: 2, temperature: 0 })).toEqual({
      provider: 'sim',
      temperature: 0,
    });
  });

  it('tells a proxied judge to speak the entry’s wire format without retrying on its own', () => {
    expect(
      proxiedSettings(
        { provider: 'openai', model: 'gpt', temperature: 0, params: { top_p: 1 } },
        { timeoutMs: 90_500, samples: 2, endpointLimit: 16 },
      ),
    ).toEqual({
      provider: 'openai',
      model: 'gpt',
      temperature: 0,
      samples: 2,
      // The proxy's calls in flight and as many waiting behind them.
      concurrency: 32,
      max_retries: 0,
      timeout_s: 91,
      proxy_hints: true,
    });
    expect(proxiedSettings({ provider: 'claude-cli' }, { timeoutMs: 1000, endpointLimit: 1 })).toMatchObject({
      provider: 'anthropic',
      model: 'claude-cli',
    });
  });
});

describe('parseSettingsJson, key by key', () => {
  it('refuses each invalid value with its key and what it must be', () => {
    const bad: [string, RegExp][] = [
      ['[]', /expected an object/],
      ['{"provider":"sim","model":""}', /model: expected a model name/],
      ['{"provider":"sim","temperature":3}', /temperature: expected a number from 0 to 2/],
      ['{"provider":"sim","max_tokens":0}', /max_tokens: expected a whole number >= 1/],
      ['{"provider":"sim","samples":1.5}', /samples: expected a whole number >= 1/],
      ['{"provider":"sim","params":[1]}', /params: expected an object/],
      ['{"provider":"sim","concurrency":"8"}', /concurrency: expected a whole number >= 1/],
      ['{"provider":"sim","timeout_s":0}', /timeout_s: expected a positive number/],
      ['{"provider":"sim","max_retries":-1}', /max_retries: expected a whole number >= 0/],
      ['{"provider":"sim","bogus":1}', /unknown key "bogus"/],
    ];
    for (const [text, message] of bad) {
      expect(parseSettingsJson(text), text).toMatchObject({ ok: false, message });
    }
  });

  it('keeps every valid key as given', () => {
    const settings = {
      provider: 'anthropic',
      model: 'm',
      temperature: 0,
      max_tokens: 10,
      samples: 2,
      params: { top_p: 1 },
      concurrency: 64,
      timeout_s: 1.5,
      max_retries: 0,
    };
    expect(parseSettingsJson(JSON.stringify(settings))).toEqual({ ok: true, settings });
  });
});
