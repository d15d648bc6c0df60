// The user's real Claude Code and Codex, at the pinned versions (test/helpers/pinned-clis.js),
// through our adapters against the fake LLM server: what each sends, and how its failures come
// back. The server is also each CLI's HTTPS proxy, so a connection to any other host shows up
// in its log as a refused CONNECT: no test reaches the network.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createClaudeCliProvider } from '../../src/providers/adapters/claude-cli.js';
import { createCodexCliProvider } from '../../src/providers/adapters/codex-cli.js';
import { createModelPool } from '../../src/providers/model-pool.js';
import { type Provider, ProviderError } from '../../src/providers/types.js';
import { type FakeLlmServer, startFakeLlmServer } from '../helpers/fake-llm-server.js';
import { pinnedCli } from '../helpers/pinned-clis.js';

const KEY = 'sk-fake-cli-key';
let server: FakeLlmServer;
let home: string;

beforeAll(async () => {
  server = await startFakeLlmServer({
    requireKey: KEY,
    respond: (req) => `echo: ${req.messages.at(-1)?.content}`,
  });
  home = await mkdtemp(join(tmpdir(), 'real-clis-'));
});
afterAll(async () => {
  await server.close();
  await rm(home, { recursive: true, force: true });
});
beforeEach(() => {
  server.reset();
  server.configure({ faults: [] });
});

/** A private home (no login of the user's), and every other host through the refusing proxy. */
function cliEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  return {
    PATH: process.env['PATH'],
    HOME: home,
    HTTPS_PROXY: server.url,
    HTTP_PROXY: server.url,
    NO_PROXY: '127.0.0.1',
    ...extra,
  };
}

async function failure(provider: Provider): Promise<ProviderError> {
  const error = await provider
    .complete({ messages: [{ role: 'user', content: 'hello' }] })
    .catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

const elsewhere = () => server.log.filter((entry) => entry.api === 'proxy').map((entry) => entry.path);

describe('Claude Code 2.1.332 through the claude-cli adapter', () => {
  const claude = (key = KEY) =>
    createClaudeCliProvider(
      { provider: 'claude-cli', model: 'sonnet', binary: pinnedCli('claude') },
      { env: cliEnv({ ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: key }) },
    );

  it('makes one streamed Messages call with our system prompt, no tools, nothing elsewhere', async () => {
    const result = await claude().complete({
      system: 'Be brief.',
      messages: [{ role: 'user', content: 'hello' }],
    });
    expect(result.text).toMatch(/^echo: /);
    expect(server.log.map((entry) => `${entry.method} ${entry.path} ${entry.status}`)).toEqual([
      'POST /v1/messages 200',
    ]);
    const body = server.log[0]?.body ?? {};
    expect(body['stream']).toBe(true);
    expect(body['tools']).toEqual([]);
    expect(JSON.stringify(body['system'])).toContain('Be brief.');
    expect(JSON.stringify(body['messages'])).toContain('hello');
    expect(elsewhere()).toEqual([]);
  }, 60_000);

  it('sends the same prompt on every call: its working folder does not change', async () => {
    const provider = claude();
    for (let call = 0; call < 2; call++)
      await provider.complete({ messages: [{ role: 'user', content: 'hello' }] });
    const [first, second] = server.log.map((entry) => JSON.stringify(entry.body?.['messages']));
    expect(first).toContain('Primary working directory');
    expect(second).toBe(first);
  }, 60_000);

  it('retries a plain-text answer to a structured request (error_max_turns), and counts what each cost', async () => {
    const pool = createModelPool({
      models: {
        judge: { provider: 'claude-cli', model: 'sonnet', binary: pinnedCli('claude'), max_retries: 1 },
      },
      concurrency: 1,
      env: cliEnv({ ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: KEY }),
      retry: { sleep: async () => undefined },
    });
    try {
      const schema = { type: 'object', properties: { score: { type: 'number' } }, required: ['score'] };
      const error = await pool
        .client('judge')
        .complete({ messages: [{ role: 'user', content: 'score it' }], output: { name: 'score', schema } })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProviderError);
      expect((error as ProviderError).kind).toBe('malformed');
      expect(server.log).toHaveLength(2);
      // Claude Code reports a cost for each billed attempt; the ledger holds both.
      const spent = pool.ledger.snapshot().total.usd;
      expect((error as ProviderError).costUsd).toBe(spent);
      expect(spent).toBeGreaterThan(0);
    } finally {
      await pool.close();
    }
  }, 60_000);

  it('fails a refused key as auth after one request', async () => {
    const error = await failure(claude('sk-wrong'));
    expect(error.kind).toBe('auth');
    expect(server.log).toHaveLength(1);
    // The CLI keeps its own login: the hint points there, not at a key of ours.
    expect(error.hint).toMatch(/`claude auth login`.*ANTHROPIC_API_KEY/);
  }, 60_000);
});

describe('Codex 0.171.0 through the codex-cli adapter', () => {
  const codex = (env: Record<string, string> = { CODEX_API_KEY: KEY }) =>
    createCodexCliProvider(
      { provider: 'codex-cli', model: 'gpt-5.5', base_url: server.openaiBaseUrl, binary: pinnedCli('codex') },
      { env: cliEnv({ CODEX_HOME: home, ...env }) },
    );

  it('makes one streamed Responses call of our system prompt and the message, nothing elsewhere', async () => {
    const result = await codex().complete({
      system: 'Be brief.',
      messages: [{ role: 'user', content: 'hello' }],
    });
    expect(result.text).toBe('echo: hello');
    expect(result.usage.outputTokens).toBeGreaterThan(0);
    expect(server.log.map((entry) => `${entry.method} ${entry.path} ${entry.status}`)).toEqual([
      'POST /v1/responses 200',
    ]);
    const body = server.log[0]?.body ?? {};
    expect(body['stream']).toBe(true);
    // Our system prompt first as a developer message, then the message: no permissions or
    // environment messages (the latter named a new temporary folder on every call).
    const input = (body['input'] as { role: string; content: { text: string }[] }[]).map((item) => [
      item.role,
      item.content.map((part) => part.text).join(''),
    ]);
    expect(input).toEqual([
      ['developer', 'Be brief.'],
      ['user', 'hello'],
    ]);
    const tools = (body['tools'] as { name?: string; type: string }[]).map((tool) => tool.name ?? tool.type);
    expect(tools).not.toContain('request_user_input');
    expect(elsewhere()).toEqual([]);
  }, 60_000);

  it('makes one request of an HTTP 500 (its own retries off) and fails it as retryable server trouble', async () => {
    server.configure({ faults: ['server_error', 'server_error', 'server_error'] });
    const error = await failure(codex());
    expect(error.kind).toBe('server');
    expect(server.log.filter((entry) => entry.path === '/v1/responses')).toHaveLength(1);
  }, 60_000);

  it('fails a missing key (the API refuses the call) as auth after one request', async () => {
    const error = await failure(codex({}));
    expect(error.kind).toBe('auth');
    expect(error.hint).toMatch(/`codex login`.*CODEX_API_KEY/);
    expect(server.log.filter((entry) => entry.path === '/v1/responses')).toHaveLength(1);
  }, 60_000);
});
