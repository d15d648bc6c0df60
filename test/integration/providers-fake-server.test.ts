import { afterEach, describe, expect, it } from 'vitest';
import { createSimProvider } from '../../src/providers/sim/sim-provider.js';
import type { CompletionRequest, Provider } from '../../src/providers/types.js';
import { type FakeLlmServer, respondWith, startFakeLlmServer } from '../helpers/fake-llm-server.js';

let server: FakeLlmServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

describe('fake LLM server', () => {
  it('normalises both wire formats and logs each request', async () => {
    const seen: unknown[] = [];
    server = await startFakeLlmServer({
      respond: (req) => {
        seen.push({ api: req.api, system: req.system, messages: req.messages, t: req.temperature });
        return { text: `hi ${req.model}`, usage: { input_tokens: 7, output_tokens: 3 } };
      },
    });
    const a = await post(
      `${server.anthropicBaseUrl}/v1/messages`,
      {
        model: 'claude-x',
        system: 'be brief',
        max_tokens: 10,
        temperature: 0.5,
        messages: [{ role: 'user', content: [{ type: 'text', text: 'hello' }] }],
      },
      { 'x-api-key': 'secret' },
    );
    expect(JSON.parse(a.text)).toMatchObject({
      type: 'message',
      content: [{ type: 'text', text: 'hi claude-x' }],
      stop_reason: 'end_turn',
      usage: { input_tokens: 7, output_tokens: 3 },
    });
    const o = await post(`${server.openaiBaseUrl}/chat/completions`, {
      model: 'gpt-x',
      messages: [
        { role: 'system', content: 'sys' },
        { role: 'user', content: 'q' },
      ],
    });
    expect(JSON.parse(o.text)).toMatchObject({
      choices: [{ message: { content: 'hi gpt-x' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 7, completion_tokens: 3 },
    });
    expect(seen).toEqual([
      { api: 'anthropic', system: 'be brief', messages: [{ role: 'user', content: 'hello' }], t: 0.5 },
      { api: 'openai', system: 'sys', messages: [{ role: 'user', content: 'q' }], t: undefined },
    ]);
    expect(server.log.map((e) => [e.api, e.status, e.hasAuth])).toEqual([
      ['anthropic', 200, true],
      ['openai', 200, false],
    ]);
    expect(JSON.stringify(server.log)).not.toContain('secret');
  });

  it('plays scripted faults in order with each API’s error body', async () => {
    server = await startFakeLlmServer({
      faults: [{ kind: 'rate_limit', retryAfterS: 2, retryAfterMs: 150 }, 'credit', 'unauthorized', null],
    });
    const url = `${server.openaiBaseUrl}/chat/completions`;
    const body = { model: 'm', messages: [{ role: 'user', content: 'x' }] };
    const r1 = await post(url, body);
    expect([r1.status, r1.headers.get('retry-after'), r1.headers.get('retry-after-ms')]).toEqual([
      429,
      '2',
      '150',
    ]);
    const r2 = await post(url, body);
    expect(r2.status).toBe(429);
    expect(JSON.parse(r2.text)).toMatchObject({ error: { code: 'insufficient_quota' } });
    const r3 = await post(`${server.url}/v1/messages`, body);
    expect(r3.status).toBe(401);
    expect(JSON.parse(r3.text)).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
    expect((await post(url, body)).status).toBe(200);
    expect(server.log.map((e) => e.fault)).toEqual(['rate_limit', 'credit', 'unauthorized', undefined]);
  });

  it('cuts bodies, sends junk, and counts requests in flight', async () => {
    server = await startFakeLlmServer({ latencyMs: 30, faults: ['truncated', 'malformed'] });
    const url = `${server.url}/v1/messages`;
    const body = { model: 'm', messages: [{ role: 'user', content: 'x' }] };
    await expect(post(url, body)).rejects.toThrow();
    const junk = await post(url, body);
    expect(() => JSON.parse(junk.text)).toThrow();
    await Promise.all([post(url, body), post(url, body), post(url, body)]);
    expect(server.maxInFlight).toBe(3);
  });

  it('hangs until the client gives up, and rejects a wrong key when asked to', async () => {
    server = await startFakeLlmServer({ faults: ['hang'], requireKey: 'right' });
    const url = `${server.url}/v1/messages`;
    const body = { model: 'm', messages: [] };
    await expect(
      fetch(url, { method: 'POST', body: JSON.stringify(body), signal: AbortSignal.timeout(100) }),
    ).rejects.toThrow();
    expect((await post(url, body, { 'x-api-key': 'wrong' })).status).toBe(401);
    expect((await post(url, body, { 'x-api-key': 'right' })).status).toBe(200);
  });

  it('spreads seeded faults reproducibly', async () => {
    const statuses = async () => {
      const s = await startFakeLlmServer({ faultRate: { rate: 0.5, seed: 42, kinds: ['server_error'] } });
      const out: number[] = [];
      for (let i = 0; i < 20; i++) {
        out.push((await post(`${s.url}/v1/messages`, { model: 'm', messages: [] })).status);
      }
      await s.close();
      return out;
    };
    const first = await statuses();
    expect(first).toEqual(await statuses());
    expect(first).toContain(500);
    expect(first).toContain(200);
  });

  it('serves another provider’s replies through respondWith', async () => {
    server = await startFakeLlmServer({ respond: respondWith(createSimProvider({ provider: 'sim' })) });
    const body = {
      model: 'm',
      max_tokens: 5,
      messages: [{ role: 'user', content: 'Write a long essay about tea.' }],
    };
    const a = JSON.parse((await post(`${server.url}/v1/messages`, body)).text);
    expect(a.content[0].text.length).toBeGreaterThan(0);
    expect(a.stop_reason).toBe('max_tokens');
    const o = JSON.parse((await post(`${server.openaiBaseUrl}/chat/completions`, body)).text);
    expect(o.choices[0].finish_reason).toBe('length');
  });

  it('hands respondWith’s provider the tool turns, tools and schema, and answers with its tool calls', async () => {
    const asked: CompletionRequest[] = [];
    const provider: Provider = {
      name: 'sim',
      model: 'scripted',
      async complete(request) {
        asked.push(request);
        return {
          text: '',
          toolCalls: [{ id: 'c9', name: 'lookup', arguments: { n: 2 } }],
          usage: { inputTokens: 4, outputTokens: 2 },
          costUsd: null,
          latencyMs: 0,
          stopReason: 'tool_use',
        };
      },
    };
    server = await startFakeLlmServer({ respond: respondWith(provider) });
    const tool = { name: 'lookup', description: 'find', parameters: { type: 'object' } };
    const schema = { type: 'object' };
    const a = JSON.parse(
      (
        await post(`${server.url}/v1/messages`, {
          model: 'm',
          max_tokens: 50,
          system: 'sys',
          tools: [{ name: 'lookup', description: 'find', input_schema: { type: 'object' } }],
          output_config: { format: { type: 'json_schema', schema } },
          messages: [
            { role: 'user', content: 'find 1' },
            { role: 'assistant', content: [{ type: 'tool_use', id: 'c1', name: 'lookup', input: { n: 1 } }] },
            { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'c1', content: 'none' }] },
          ],
        })
      ).text,
    );
    expect(a).toMatchObject({
      content: [{ type: 'tool_use', id: 'c9', name: 'lookup', input: { n: 2 } }],
      stop_reason: 'tool_use',
    });
    const o = JSON.parse(
      (
        await post(`${server.openaiBaseUrl}/chat/completions`, {
          model: 'm',
          tools: [{ type: 'function', function: tool }],
          response_format: { type: 'json_schema', json_schema: { name: 'out', schema, strict: false } },
          messages: [
            { role: 'system', content: 'sys' },
            { role: 'user', content: 'find 1' },
            {
              role: 'assistant',
              content: null,
              tool_calls: [
                { id: 'c1', type: 'function', function: { name: 'lookup', arguments: '{"n":1}' } },
              ],
            },
            { role: 'tool', tool_call_id: 'c1', content: 'none' },
          ],
        })
      ).text,
    );
    expect(o.choices[0]).toMatchObject({
      message: {
        content: null,
        tool_calls: [{ id: 'c9', type: 'function', function: { name: 'lookup', arguments: '{"n":2}' } }],
      },
      finish_reason: 'tool_calls',
    });
    const conversation = [
      { role: 'user', content: 'find 1' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'lookup', arguments: { n: 1 } }] },
      { role: 'tool', toolCallId: 'c1', content: 'none' },
    ];
    expect(asked.map((r) => [r.system, r.messages, r.tools, r.output])).toEqual([
      ['sys', conversation, [tool], { name: 'output', schema }],
      ['sys', conversation, [tool], { name: 'out', schema }],
    ]);
  });
});
