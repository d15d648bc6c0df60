import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ModelEntry } from '../../src/experiment/schema.js';
import { ANTHROPIC_VERSION, createAnthropicProvider } from '../../src/providers/adapters/anthropic.js';
import { ProviderError } from '../../src/providers/types.js';
import {
  type FakeLlmServer,
  type FakeRequest,
  type FaultKind,
  startFakeLlmServer,
} from '../helpers/fake-llm-server.js';

const KEY = 'sk-ant-test-0123456789abcdef';
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
        usage: { input_tokens: 1000, output_tokens: 200 },
      };
    },
  });
});

const entry = (over: Partial<ModelEntry> = {}): ModelEntry => ({
  provider: 'anthropic',
  model: 'claude-sonnet-4-5-20250929',
  base_url: server.anthropicBaseUrl,
  ...over,
});
const env = { ANTHROPIC_API_KEY: KEY };
const ask = (e: ModelEntry, content = 'hello', extra = {}) =>
  createAnthropicProvider(e, { env }).complete({ messages: [{ role: 'user', content }], ...extra });

async function failure(e: ModelEntry, extra = {}): Promise<ProviderError> {
  const error = await ask(e, 'x', extra).catch((err: unknown) => err);
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

describe('anthropic adapter', () => {
  it('sends the Messages API request and reads text, usage, stop reason and cost', async () => {
    const result = await ask(entry({ system: 'be brief', temperature: 0.3, params: { top_k: 5 } }), 'hello');
    expect(result.text).toBe('reply to hello');
    expect(result.usage).toEqual({ inputTokens: 1000, outputTokens: 200 });
    expect(result.stopReason).toBe('end_turn');
    expect(result.costUsd).toBeCloseTo((1000 * 3 + 200 * 15) / 1e6, 12);
    expect(result.latencyMs).toBeGreaterThanOrEqual(0);
    const [req] = seen;
    expect(req?.system).toBe('be brief');
    expect(req?.temperature).toBe(0.3);
    expect(req?.max_tokens).toBe(1024);
    expect(req?.body['top_k']).toBe(5);
    expect(req?.model).toBe('claude-sonnet-4-5-20250929');
    expect(req?.headers['x-api-key']).toBe(KEY);
    expect(req?.headers['anthropic-version']).toBe(ANTHROPIC_VERSION);
  });

  it('lets the request override max_tokens and temperature', async () => {
    await ask(entry({ max_tokens: 50, temperature: 1 }), 'a', { maxTokens: 7, temperature: 0 });
    expect(seen[0]?.max_tokens).toBe(7);
    expect(seen[0]?.temperature).toBe(0);
  });

  it('takes ANTHROPIC_BASE_URL when the entry sets none', async () => {
    const provider = createAnthropicProvider(
      { provider: 'anthropic', model: 'claude-haiku-4-5' },
      { env: { ...env, ANTHROPIC_BASE_URL: server.anthropicBaseUrl } },
    );
    await provider.complete({ messages: [{ role: 'user', content: 'via env' }] });
    expect(seen[0]?.messages[0]?.content).toBe('via env');
  });

  it('keeps a max_tokens stop as a result, not an error', async () => {
    server.configure({ respond: () => ({ text: 'cut', stopReason: 'max_tokens' }) });
    const result = await ask(entry());
    expect(result.stopReason).toBe('max_tokens');
  });

  it('prices unknown models as null', async () => {
    expect((await ask(entry({ model: 'claude-future-9' }))).costUsd).toBeNull();
  });

  it.each<[FaultKind, string, boolean]>([
    ['server_error', 'server', true],
    ['unavailable', 'server', true],
    ['overloaded', 'server', true],
    ['rate_limit', 'rate_limit', true],
    ['unauthorized', 'auth', false],
    ['forbidden', 'auth', false],
    ['bad_request', 'bad_request', false],
    ['not_found', 'bad_request', false],
    ['credit', 'credit', false],
    ['malformed', 'malformed', true],
    ['empty', 'malformed', true],
    ['truncated', 'truncated', true],
  ])('maps the %s fault to %s', async (fault, kind, retryable) => {
    server.queueFaults(fault);
    const error = await failure(entry());
    expect(error.kind).toBe(kind);
    expect(error.retryable).toBe(retryable);
    expect(error.message).not.toContain(KEY);
    expect(server.log).toHaveLength(1);
  });

  it('reads Retry-After from a 429', async () => {
    server.queueFaults({ kind: 'rate_limit', retryAfterS: 7 });
    expect((await failure(entry())).retryAfterMs).toBe(7000);
  });

  it('names the key variable on 401, never the key', async () => {
    server.queueFaults('unauthorized');
    const error = await failure(entry({ api_key_env: 'MY_CLAUDE_KEY' }), {});
    expect(error.message).toMatch(/MY_CLAUDE_KEY is not set/);
    const provider = createAnthropicProvider(entry({ api_key_env: 'MY_CLAUDE_KEY' }), {
      env: { MY_CLAUDE_KEY: KEY },
    });
    const rejected = await provider
      .complete({ messages: [{ role: 'user', content: 'x' }] })
      .catch((e: unknown) => e);
    expect((rejected as ProviderError).message).toContain('MY_CLAUDE_KEY was rejected (401)');
    expect((rejected as ProviderError).stopsRun).toBe(true);
  });

  it('times out a hanging server at timeout_s', async () => {
    server.queueFaults('hang');
    const started = performance.now();
    const error = await failure(entry({ timeout_s: 0.2 }));
    expect(error.kind).toBe('timeout');
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('aborts a hanging call within a second', async () => {
    server.queueFaults('hang');
    const controller = new AbortController();
    const started = performance.now();
    setTimeout(() => controller.abort(), 50);
    const error = await failure(entry(), { signal: controller.signal });
    expect(error.kind).toBe('aborted');
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('reports an unreachable server as a network error', async () => {
    const error = await failure(entry({ base_url: 'http://127.0.0.1:9' }));
    expect(error.kind).toBe('network');
  });
});
