/**
 * The loopback model proxy: one-time token, both wire formats, the run's client behind it
 * (real key, cache, retries), sample numbering for identical calls, and errors mapped back.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ModelProxy, startModelProxy } from '../../src/sandbox/model-proxy.js';
import { createModelPool, type ModelPool } from '../../src/providers/model-pool.js';
import { ProviderError } from '../../src/providers/types.js';
import { type FakeLlmServer, startFakeLlmServer } from '../helpers/fake-llm-server.js';

const USER_KEY = 'sk-ant-api03-REAL-USER-KEY-91c2';
let server: FakeLlmServer;
let cacheDir: string;
let pool: ModelPool;
let proxy: ModelProxy | undefined;

beforeAll(async () => {
  server = await startFakeLlmServer({ requireKey: USER_KEY });
  cacheDir = await mkdtemp(join(tmpdir(), 'judge-proxy-cache-'));
});
afterAll(async () => {
  await server.close();
  await rm(cacheDir, { recursive: true, force: true });
});
beforeEach(async () => {
  server.reset();
  server.configure({ faults: [], respond: (req) => `echo ${req.messages.at(-1)?.content ?? ''}` });
  await rm(cacheDir, { recursive: true, force: true });
  pool = createModelPool({
    models: {
      judge: {
        provider: 'anthropic',
        model: 'claude-judge',
        base_url: server.anthropicBaseUrl,
        max_retries: 1,
      },
    },
    concurrency: 4,
    cacheDir,
    env: { ANTHROPIC_API_KEY: USER_KEY },
    retry: { baseDelayMs: 1, maxDelayMs: 2 },
  });
  proxy = await startModelProxy({ client: pool.client('judge') });
});
afterEach(async () => {
  await proxy?.close();
  await pool.close();
});

async function post(path: string, body: unknown, headers: Record<string, string>) {
  const res = await fetch(`${proxy?.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

const anthropicBody = (content: string) => ({
  model: 'x',
  max_tokens: 100,
  messages: [{ role: 'user', content }],
});
const openaiBody = (content: string) => ({
  model: 'x',
  messages: [
    { role: 'system', content: 'sys' },
    { role: 'user', content },
  ],
});

describe('model proxy', () => {
  it('serves Anthropic and OpenAI requests through the run’s client with the real key', async () => {
    const token = proxy?.token as string;
    expect(token).not.toContain(USER_KEY);
    const a = await post('/v1/messages', anthropicBody('one'), { 'x-api-key': token });
    expect(a.status).toBe(200);
    expect(a.json).toMatchObject({
      type: 'message',
      content: [{ type: 'text', text: 'echo one' }],
      stop_reason: 'end_turn',
    });
    const o = await post('/v1/chat/completions', openaiBody('two'), { authorization: `Bearer ${token}` });
    expect(o.status).toBe(200);
    expect(o.json).toMatchObject({
      object: 'chat.completion',
      choices: [{ message: { content: 'echo two' }, finish_reason: 'stop' }],
    });
    expect(server.log.map((e) => [e.api, e.status, e.body?.['model']])).toEqual([
      ['anthropic', 200, 'claude-judge'],
      ['anthropic', 200, 'claude-judge'],
    ]);
    expect(server.log[1]?.body?.['system']).toBe('sys');
    expect(proxy?.served).toBe(2);
  });

  it('refuses requests without the one-time token, and never forwards them', async () => {
    const attempts: Record<string, string>[] = [
      {},
      { 'x-api-key': USER_KEY },
      { authorization: 'Bearer nope' },
    ];
    for (const headers of attempts) {
      const res = await post('/v1/messages', anthropicBody('x'), headers);
      expect(res.status).toBe(401);
      expect(res.json).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
    }
    const openai = await post('/v1/chat/completions', openaiBody('x'), {});
    expect(openai).toMatchObject({ status: 401, json: { error: { code: 'invalid_api_key' } } });
    expect(server.log).toHaveLength(0);
  });

  it('refuses unknown routes and streaming', async () => {
    const token = proxy?.token as string;
    expect((await post('/v1/complete', {}, { 'x-api-key': token })).status).toBe(404);
    expect(
      (await post('/v1/messages', { ...anthropicBody('x'), stream: true }, { 'x-api-key': token })).status,
    ).toBe(400);
    expect(server.log).toHaveLength(0);
  });

  it('numbers identical requests so samples are distinct calls, and a new evaluation reuses the cache', async () => {
    const token = proxy?.token as string;
    const ask = () => post('/v1/messages', anthropicBody('same text'), { 'x-api-key': token });
    await Promise.all([ask(), ask()]);
    expect(server.log).toHaveLength(2);
    await proxy?.close();
    proxy = await startModelProxy({ client: pool.client('judge') });
    const again = proxy.token;
    const replay = () => post('/v1/messages', anthropicBody('same text'), { 'x-api-key': again });
    await Promise.all([replay(), replay()]);
    expect(server.log).toHaveLength(2);
    await replay();
    expect(server.log).toHaveLength(3);
  });

  it('serves a fresh judging from the model, never the cache, with samples counted from its base', async () => {
    const token = proxy?.token as string;
    const ask = (t: string) => post('/v1/messages', anthropicBody('same text'), { 'x-api-key': t });
    await Promise.all([ask(token), ask(token)]);
    expect(server.log).toHaveLength(2);
    for (const sampleBase of [100, 100]) {
      await proxy?.close();
      proxy = await startModelProxy({ client: pool.client('judge'), fresh: { sampleBase } });
      const fresh = proxy.token;
      await Promise.all([ask(fresh), ask(fresh)]);
    }
    // Both fresh judgings asked the model twice each, though the same requests were cached.
    expect(server.log).toHaveLength(6);
    await proxy?.close();
    proxy = await startModelProxy({ client: pool.client('judge') });
    const plain = proxy.token;
    await Promise.all([ask(plain), ask(plain)]);
    // An ordinary evaluation is still served samples 0 and 1 from the cache.
    expect(server.log).toHaveLength(6);
  });

  it('passes upstream failures back in the caller’s wire format and records them', async () => {
    const token = proxy?.token as string;
    server.queueFaults('unauthorized');
    const auth = await post('/v1/messages', anthropicBody('a'), { 'x-api-key': token });
    expect(auth).toMatchObject({ status: 401, json: { error: { type: 'authentication_error' } } });
    expect(JSON.stringify(auth.json)).not.toContain(USER_KEY);

    server.queueFaults('credit');
    const credit = await post('/v1/chat/completions', openaiBody('b'), { authorization: `Bearer ${token}` });
    expect(credit).toMatchObject({ status: 429, json: { error: { code: 'insufficient_quota' } } });

    server.queueFaults('server_error', 'server_error');
    const server5xx = await post('/v1/messages', anthropicBody('c'), { 'x-api-key': token });
    expect(server5xx.status).toBe(502);

    expect(proxy?.failures.map((f) => (f instanceof ProviderError ? f.kind : 'other'))).toEqual([
      'auth',
      'credit',
      'server',
    ]);
  });
});
