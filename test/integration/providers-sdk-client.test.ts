/**
 * What the SDK clients under the HTTP adapters must not do behind the runner's back: print to
 * the terminal, take a base URL or organisation from the process environment, or let a body
 * that trickles in outlive the entry's timeout.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ModelEntry } from '../../src/experiment/schema.js';
import { createAnthropicProvider } from '../../src/providers/adapters/anthropic.js';
import { createOpenAiProvider } from '../../src/providers/adapters/openai.js';
import type { Provider, ProviderError } from '../../src/providers/types.js';
import { type FakeLlmServer, startFakeLlmServer } from '../helpers/fake-llm-server.js';

let server: FakeLlmServer;
const saved = { ...process.env };

beforeAll(async () => {
  server = await startFakeLlmServer();
});
afterAll(() => server.close());
afterEach(() => {
  process.env = { ...saved };
  vi.restoreAllMocks();
  server.reset();
});

const ask = { messages: [{ role: 'user' as const, content: 'hi' }] };

describe('the SDK clients under the HTTP adapters', () => {
  it('print nothing, even for a model the SDK lists as deprecated or with its log variables set', async () => {
    process.env['ANTHROPIC_LOG'] = 'debug';
    process.env['OPENAI_LOG'] = 'debug';
    const spies = (['log', 'warn', 'error', 'info', 'debug'] as const).map((name) =>
      vi.spyOn(console, name).mockImplementation(() => undefined),
    );
    const anthropic: ModelEntry = {
      provider: 'anthropic',
      model: 'claude-sonnet-4-5',
      base_url: server.anthropicBaseUrl,
    };
    const openai: ModelEntry = { provider: 'openai', model: 'gpt-4o', base_url: server.openaiBaseUrl };
    await createAnthropicProvider(anthropic, { env: { ANTHROPIC_API_KEY: 'sk-ant-k' } }).complete(ask);
    await createOpenAiProvider(openai, { env: { OPENAI_API_KEY: 'sk-k' } }).complete(ask);
    expect(server.log.map((entry) => entry.status)).toEqual([200, 200]);
    for (const spy of spies) expect(spy).not.toHaveBeenCalled();
  });

  it('take base URLs from the entry or the environment they are given, never from process.env', async () => {
    process.env['ANTHROPIC_BASE_URL'] = 'http://127.0.0.1:9';
    process.env['OPENAI_BASE_URL'] = 'http://127.0.0.1:9/v1';
    process.env['OPENAI_ORG_ID'] = 'org-from-process-env';
    process.env['OPENAI_PROJECT_ID'] = 'proj-from-process-env';
    const env = { ANTHROPIC_API_KEY: 'sk-ant-k', ANTHROPIC_BASE_URL: server.anthropicBaseUrl };
    await createAnthropicProvider({ provider: 'anthropic', model: 'claude-haiku-4-5' }, { env }).complete(
      ask,
    );
    await createOpenAiProvider(
      { provider: 'openai', model: 'gpt-4o', base_url: server.openaiBaseUrl },
      { env: { OPENAI_API_KEY: 'sk-k' } },
    ).complete(ask);
    expect(server.log.map((entry) => entry.path)).toEqual(['/v1/messages', '/v1/chat/completions']);
    const headers = server.log.map((entry) => entry.headers);
    expect(headers[0]?.['authorization']).toBeUndefined();
    expect(headers[1]?.['openai-organization']).toBeUndefined();
    expect(headers[1]?.['openai-project']).toBeUndefined();
  });

  it('keep the server’s words from error bodies the SDKs parse differently', async () => {
    const fail = (provider: Provider) =>
      provider.complete(ask).then(
        () => new Error('the call succeeded'),
        (e: unknown) => e as ProviderError,
      );
    server.configure({
      respond: (req) =>
        req.api === 'openai'
          ? { status: 404, rawBody: '{"error":"model not loaded"}' }
          : { status: 502, headers: { 'content-type': 'text/html' }, rawBody: '<html>bad gateway</html>' },
    });
    const openai = await fail(
      createOpenAiProvider(
        { provider: 'openai', model: 'llama', base_url: server.openaiBaseUrl },
        { env: { OPENAI_API_KEY: 'sk-k' } },
      ),
    );
    expect(openai).toMatchObject({ kind: 'bad_request', status: 404 });
    expect(openai.message).toContain('model not loaded');
    const anthropic = await fail(
      createAnthropicProvider(
        { provider: 'anthropic', model: 'claude-haiku-4-5', base_url: server.anthropicBaseUrl },
        { env: { ANTHROPIC_API_KEY: 'sk-ant-k' } },
      ),
    );
    expect(anthropic).toMatchObject({ kind: 'server', status: 502 });
    expect(anthropic.message).toContain('<html>bad gateway</html>');
    server.configure({ respond: () => 'ok' });
  });

  it('time out a body that trickles in past timeout_s', async () => {
    // Headers at once, then a byte every 50 ms: the SDK's own timer stops at the headers.
    const slow = createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      const timer = setInterval(() => res.write(' '), 50);
      res.on('close', () => clearInterval(timer));
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(slow.address() as AddressInfo).port}`;
    try {
      const started = performance.now();
      const error = await createOpenAiProvider(
        { provider: 'openai', model: 'm', base_url: `${url}/v1`, timeout_s: 0.3 },
        { env: {} },
      )
        .complete(ask)
        .catch((e: unknown) => e as ProviderError);
      expect((error as ProviderError).kind).toBe('timeout');
      expect(performance.now() - started).toBeLessThan(2000);
    } finally {
      slow.closeAllConnections();
      await new Promise<void>((resolve) => slow.close(() => resolve()));
    }
  });
});
