/**
 * The judge's model proxy holds sampling settings to the role's entry (docs/design/isolation.md):
 * a real program sends `max_tokens` 1e12 and -5 and `temperature` 9 (and top_p) through the
 * proxy, and the fake LLM server shows what reached it.
 */
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelEntry } from '../../src/experiment/schema.js';
import { createModelPool } from '../../src/providers/model-pool.js';
import { startModelProxy } from '../../src/sandbox/model-proxy.js';
import { type FakeLlmServer, startFakeLlmServer } from '../helpers/fake-llm-server.js';

const KEY = 'sk-ant-proxy-sampling-0123456789';
let server: FakeLlmServer;

beforeAll(async () => {
  server = await startFakeLlmServer({ requireKey: KEY, respond: () => 'ok' });
});
afterAll(async () => {
  await server?.close();
});

/** Posts each body to the proxy and prints `[status, error type]` per request. */
const PROGRAM = `
const bodies = JSON.parse(process.argv[1]);
const out = [];
for (const [path, body] of bodies) {
  const res = await fetch(process.env.PROXY + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': process.env.TOKEN, authorization: 'Bearer ' + process.env.TOKEN },
    body: JSON.stringify(body),
  });
  const json = await res.json();
  out.push([res.status, json.error?.type ?? null]);
}
process.stdout.write(JSON.stringify(out));
`;

const messages = [{ role: 'user', content: 'score this' }];

async function sendThroughProxy(judge: ModelEntry, bodies: [string, Record<string, unknown>][]) {
  const pool = createModelPool({ models: { judge }, concurrency: 1, env: { ANTHROPIC_API_KEY: KEY } });
  const proxy = await startModelProxy({ client: pool.client('judge') });
  const from = server.log.length;
  try {
    const { stdout } = await execa(
      process.execPath,
      ['--input-type=module', '-e', PROGRAM, JSON.stringify(bodies)],
      {
        env: { PROXY: proxy.url, TOKEN: proxy.token },
      },
    );
    const reached = server.log
      .slice(from)
      .filter((entry) => entry.api === 'anthropic')
      .map((entry) => entry.body as Record<string, unknown>);
    return { answers: JSON.parse(stdout) as [number, string | null][], reached };
  } finally {
    await proxy.close();
    await pool.close();
  }
}

describe('sampling settings through the model proxy', () => {
  it('refuses max_tokens -5 and temperature 9, caps 1e12 at the entry, and sends the entry’s temperature', async () => {
    const judge: ModelEntry = {
      provider: 'anthropic',
      model: 'claude-judge',
      base_url: server.anthropicBaseUrl,
      max_tokens: 300,
      temperature: 0,
    };
    const { answers, reached } = await sendThroughProxy(judge, [
      ['/v1/messages', { model: 'x', max_tokens: 1e12, temperature: 0.9, top_p: 0.01, messages }],
      ['/v1/messages', { model: 'x', max_tokens: -5, messages }],
      ['/v1/messages', { model: 'x', max_tokens: 100, temperature: 9, messages }],
      ['/v1/chat/completions', { model: 'x', max_completion_tokens: 2.5, messages }],
      ['/v1/messages', { model: 'x', max_tokens: 100, messages }],
    ]);
    expect(answers).toEqual([
      [200, null],
      [400, 'invalid_request_error'],
      [400, 'invalid_request_error'],
      [400, 'invalid_request_error'],
      [200, null],
    ]);
    // Only the two sensible requests reached the server, held to the entry.
    expect(reached).toHaveLength(2);
    expect(reached[0]).toMatchObject({ max_tokens: 300, temperature: 0 });
    expect(reached[0]).not.toHaveProperty('top_p');
    expect(reached[1]).toMatchObject({ max_tokens: 100, temperature: 0 });
  });

  it('caps at the adapters’ default when the entry sets no max_tokens, and passes a sensible temperature', async () => {
    const judge: ModelEntry = {
      provider: 'anthropic',
      model: 'claude-judge',
      base_url: server.anthropicBaseUrl,
    };
    const { answers, reached } = await sendThroughProxy(judge, [
      ['/v1/messages', { model: 'x', max_tokens: 1e12, temperature: 0.4, messages }],
    ]);
    expect(answers).toEqual([[200, null]]);
    expect(reached[0]).toMatchObject({ max_tokens: 1024, temperature: 0.4 });
  });
});
