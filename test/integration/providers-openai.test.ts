import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ModelEntry } from '../../src/experiment/schema.js';
import { createOpenAiProvider } from '../../src/providers/adapters/openai.js';
import { ProviderError } from '../../src/providers/types.js';
import {
  type FakeLlmServer,
  type FakeRequest,
  type FaultKind,
  startFakeLlmServer,
} from '../helpers/fake-llm-server.js';

const KEY = 'sk-proj-test-0123456789abcdef';
let server: FakeLlmServer;
let seen: FakeRequest[] = [];

beforeAll(async () => {
  server = await startFakeLlmServer();
});
afterAll(() => server.close());
beforeEach(() => {
  seen = [];
  server.reset();
  server.configure({
    faults: [],
    respond: (req) => {
      seen.push(req);
      return {
        text: `reply to ${req.messages.at(-1)?.content}`,
        usage: { input_tokens: 1000, output_tokens: 100 },
      };
    },
  });
});

const entry = (over: Partial<ModelEntry> = {}): ModelEntry => ({
  provider: 'openai',
  model: 'gpt-4o-mini',
  base_url: server.openaiBaseUrl,
  ...over,
});
const ask = (e: ModelEntry, env: NodeJS.ProcessEnv = { OPENAI_API_KEY: KEY }, extra = {}) =>
  createOpenAiProvider(e, { env }).complete({ messages: [{ role: 'user', content: 'hello' }], ...extra });

async function failure(e: ModelEntry, extra = {}): Promise<ProviderError> {
  const error = await ask(e, { OPENAI_API_KEY: KEY }, extra).catch((err: unknown) => err);
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

describe('openai adapter', () => {
  it('bills the input the API served from its prompt cache at the cached-input price', async () => {
    server.configure({ respond: () => ({ text: 'ok', usage: { output_tokens: 10 } }) });
    const long = 'Classify the ticket by the policy below, citing the clause. '.repeat(90);
    const provider = createOpenAiProvider(entry({ system: long }), { env: { OPENAI_API_KEY: KEY } });
    const first = await provider.complete({ messages: [{ role: 'user', content: 'ticket one' }] });
    const second = await provider.complete({ messages: [{ role: 'user', content: 'ticket two' }] });
    expect(first.usage.cacheReadTokens).toBeUndefined();
    const cached = second.usage.cacheReadTokens ?? 0;
    expect(cached).toBeGreaterThanOrEqual(1024);
    // gpt-4o-mini: $0.15 per million input, $0.075 cached, $0.60 output.
    const plain = second.usage.inputTokens - cached;
    expect(second.costUsd).toBeCloseTo((plain * 0.15 + cached * 0.075 + 10 * 0.6) / 1e6, 12);
    expect(second.costUsd as number).toBeLessThan(first.costUsd as number);
  });

  it('sends Chat Completions with the system prompt as a system message', async () => {
    const result = await ask(
      entry({ system: 'sys', temperature: 0.2, max_tokens: 64, params: { top_p: 0.5, stop: ['\n\n'] } }),
    );
    expect(result).toMatchObject({
      text: 'reply to hello',
      usage: { inputTokens: 1000, outputTokens: 100 },
      stopReason: 'stop',
    });
    expect(result.costUsd).toBeCloseTo((1000 * 0.15 + 100 * 0.6) / 1e6, 12);
    const body = seen[0]?.body ?? {};
    expect(body['messages']).toEqual([
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'hello' },
    ]);
    expect(body).toMatchObject({
      model: 'gpt-4o-mini',
      temperature: 0.2,
      max_tokens: 64,
      top_p: 0.5,
      stop: ['\n\n'],
    });
    expect(seen[0]?.headers['authorization']).toBe(`Bearer ${KEY}`);
  });

  it('uses max_completion_tokens for reasoning models', async () => {
    await ask(entry({ model: 'gpt-5-mini', max_tokens: 32 }));
    expect(seen[0]?.body).toMatchObject({ max_completion_tokens: 32 });
    expect(seen[0]?.body).not.toHaveProperty('max_tokens');
  });

  it('works with no key against a local server', async () => {
    const result = await ask(entry({ model: 'llama3.1:8b' }), {});
    expect(result.text).toBe('reply to hello');
    expect(result.costUsd).toBeNull();
    expect(seen[0]?.headers['authorization']).toBeUndefined();
    expect(server.log[0]?.hasAuth).toBe(false);
  });

  it('refuses the public endpoint without a key, naming the variable', async () => {
    const error = await ask({ provider: 'openai', model: 'gpt-4o' }, {}).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'auth' });
    expect((error as Error).message).toContain('OPENAI_API_KEY is not set');
  });

  it('takes OPENAI_BASE_URL when the entry sets none', async () => {
    await ask({ provider: 'openai', model: 'm' }, { OPENAI_BASE_URL: server.openaiBaseUrl });
    expect(seen).toHaveLength(1);
  });

  it('keeps a length stop as a result', async () => {
    server.configure({ respond: () => ({ text: 'cut', stopReason: 'length' }) });
    expect((await ask(entry())).stopReason).toBe('length');
  });

  it.each<[FaultKind, string]>([
    ['server_error', 'server'],
    ['unavailable', 'server'],
    ['rate_limit', 'rate_limit'],
    ['unauthorized', 'auth'],
    ['forbidden', 'auth'],
    ['bad_request', 'bad_request'],
    ['not_found', 'bad_request'],
    ['credit', 'credit'],
    ['malformed', 'malformed'],
    ['empty', 'malformed'],
    ['truncated', 'truncated'],
  ])('maps the %s fault to %s', async (fault, kind) => {
    server.queueFaults(fault);
    const error = await failure(entry());
    expect(error.kind).toBe(kind);
    expect(error.message).not.toContain(KEY);
  });

  it('names OPENAI_API_KEY on 401', async () => {
    server.queueFaults('unauthorized');
    const error = await failure(entry());
    expect(error.message).toContain('OPENAI_API_KEY was rejected (401)');
  });

  it('treats insufficient_quota as credit even though it is a 429', async () => {
    server.queueFaults('credit');
    const error = await failure(entry());
    expect(error.status).toBe(429);
    expect(error.stopsRun).toBe(true);
  });

  it('reads retry-after-ms', async () => {
    server.queueFaults({ kind: 'rate_limit', retryAfterMs: 1234, retryAfterS: 9 });
    expect((await failure(entry())).retryAfterMs).toBe(1234);
  });

  it('rejects a 200 without choices as malformed', async () => {
    server.configure({ respond: () => ({ rawBody: '{"object":"chat.completion","choices":[]}' }) });
    expect((await failure(entry())).kind).toBe('malformed');
  });

  it('times out and aborts', async () => {
    server.queueFaults('hang', 'hang');
    expect((await failure(entry({ timeout_s: 0.2 }))).kind).toBe('timeout');
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const started = performance.now();
    expect((await failure(entry(), { signal: controller.signal })).kind).toBe('aborted');
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
