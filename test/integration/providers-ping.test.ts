import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PING_PROMPT, pingModels } from '../../src/providers/ping.js';
import { type FakeLlmServer, startFakeLlmServer } from '../helpers/fake-llm-server.js';

const COMMAND = resolve(import.meta.dirname, '../fixtures/bin/fake-command.mjs');
let server: FakeLlmServer;

beforeAll(async () => {
  server = await startFakeLlmServer({ requireKey: 'good-key-123456', respond: () => 'OK' });
});
afterAll(() => server.close());

describe('pingModels', () => {
  it('reports latency per working model and the exact failure of the others', async () => {
    const results = await pingModels(
      {
        generator: { provider: 'anthropic', model: 'claude-haiku-4-5', base_url: server.anthropicBaseUrl },
        mutator: {
          provider: 'openai',
          model: 'gpt-4o',
          base_url: server.openaiBaseUrl,
          api_key_env: 'BAD_KEY',
        },
        judge: { command: ['node', 'judge.mjs'] },
        grader: { provider: 'sim' },
        extra: { provider: 'command', command: [process.execPath, COMMAND] },
        missing: { provider: 'anthropic', model: 'claude-haiku-4-5', api_key_env: 'NOT_SET_ANYWHERE' },
      },
      { ANTHROPIC_API_KEY: 'good-key-123456', BAD_KEY: 'wrong-key-123456', PATH: process.env['PATH'] },
    );
    const byRole = Object.fromEntries(results.map((r) => [r.role, r]));
    expect(Object.keys(byRole).sort()).toEqual(['extra', 'generator', 'grader', 'missing', 'mutator']);
    expect(byRole['generator']).toMatchObject({ ok: true });
    expect(byRole['generator']?.latencyMs).toBeGreaterThanOrEqual(0);
    expect(byRole['mutator']).toMatchObject({ ok: false });
    expect(byRole['mutator']?.error).toContain('BAD_KEY was rejected (401)');
    expect(byRole['mutator']?.error).not.toContain('wrong-key-123456');
    expect(byRole['grader']).toMatchObject({ ok: true, simulated: true });
    expect(byRole['extra']).toMatchObject({ ok: true });
    expect(byRole['missing']).toMatchObject({
      ok: false,
      error: expect.stringContaining('NOT_SET_ANYWHERE is not set'),
    });
    const anthropicCall = server.log.find((e) => e.api === 'anthropic');
    expect(anthropicCall?.body).toMatchObject({ max_tokens: 16, temperature: 0 });
    expect(JSON.stringify(anthropicCall?.body)).toContain(PING_PROMPT);
  });

  it('gives up on a hanging endpoint at the ping timeout', async () => {
    server.queueFaults('hang');
    const started = performance.now();
    const [result] = await pingModels(
      { generator: { provider: 'anthropic', model: 'm', base_url: server.anthropicBaseUrl } },
      { ANTHROPIC_API_KEY: 'good-key-123456' },
      { timeoutMs: 300 },
    );
    expect(result).toMatchObject({ ok: false, error: expect.stringContaining('0.3 s') });
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
