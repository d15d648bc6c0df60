/**
 * The loopback proxy an agent's CLI talks to (docs/design/agent-runs.md): the CLI holds only this
 * proxy's one-time token as its key; the proxy checks it, forwards the request unchanged to the
 * real API with the real key (which never enters the sandbox), streams the answer back, and
 * reports each call (usage, cost, latency) through `onModelCall`. Unlike the judge's proxy
 * (src/sandbox/model-proxy.ts), which translates text-only calls for the run's client, this one
 * passes the CLI's own wire through — streamed Messages for Claude Code, the streamed Responses
 * API for Codex — tools and all, so the agent gets exactly what the API said.
 *
 * Successful answers are kept in the run's cache under agent-cache-key.ts's key and replayed
 * byte for byte on a hit. Past `maxCalls` a call is refused with an API error, which ends a CLI
 * that has no turn limit of its own (Codex); `limitReached` then says so.
 */
import { listenOnLoopback, presentedKey, readBody, sameSecret } from '../../sandbox/proxy-request.js';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { writeFileAtomic } from '../../atomic-file.js';
import { isRecord } from '../../is-record.js';
import { monotonicMs } from '../../providers/clock.js';
import { cacheFilePath } from '../../providers/cache.js';
import { classifyHttpError } from '../../providers/http/classify-http-error.js';
import { costOrNull, lookUpBuiltInPrice } from '../../providers/prices.js';
import { DEFAULT_MAX_RETRIES, withRetries } from '../../providers/retry.js';
import { ProviderError } from '../../providers/types.js';
import type { ModelProxy } from '../../sandbox/model-proxy.js';
import type { ProxyListen } from '../../sandbox/sandbox-agent.js';
import type { AgentModelCall, AgentRunContext, SpendHold } from '../agent-run.js';
import { type AgentKeyContext, agentCacheKey } from './agent-cache-key.js';
import { type AgentApi, readCallUsage } from './call-usage.js';
import { agentCallWorstUsd } from './call-worst-case.js';

export interface AgentUpstream {
  api: AgentApi;
  /** Anthropic: without `/v1`; OpenAI: with it. */
  baseUrl: string;
  key: string;
}

export interface AgentProxyOptions {
  upstream: AgentUpstream;
  listen: ProxyListen;
  /** The run's cache folder for agent traffic and what the key holds besides the request. */
  cache?: { dir: string; key: AgentKeyContext };
  /** Calls answered at most; the next is refused (a CLI without a turn limit of its own). */
  maxCalls?: number;
  onModelCall?: (call: AgentModelCall) => void;
  /** `budget.usd`'s hold for a call's worst case (agent-run.ts); rejects when it can never fit. */
  holdSpend?: AgentRunContext['holdSpend'];
  signal?: AbortSignal;
}

export interface AgentProxy extends ModelProxy {
  readonly stats: { calls: number; hits: number; misses: number };
  /** A call was refused for passing `maxCalls`. */
  readonly limitReached: boolean;
}

const ROUTE: Record<AgentApi, string> = { anthropic: '/v1/messages', openai: '/v1/responses' };
/** Request headers the API reads besides the key; everything else (the token, ids) stays here. */
const PASSED_HEADERS = ['content-type', 'accept', 'anthropic-version', 'anthropic-beta', 'openai-beta'];

interface CachedCall {
  v: 1;
  kind: 'agent-call';
  contentType: string;
  body: string;
}

function isCachedCall(value: unknown): value is CachedCall {
  return (
    isRecord(value) &&
    value['v'] === 1 &&
    value['kind'] === 'agent-call' &&
    typeof value['contentType'] === 'string' &&
    typeof value['body'] === 'string'
  );
}

async function readCached(dir: string, key: string): Promise<CachedCall | undefined> {
  try {
    const parsed: unknown = JSON.parse(await readFile(cacheFilePath(dir, key), 'utf8'));
    return isCachedCall(parsed) ? parsed : undefined;
  } catch {
    // missing or damaged: a miss, overwritten by the fresh answer
    return undefined;
  }
}

/** An error in the API's own shape, so the CLI reports it as the API would be reported. */
function sendError(res: ServerResponse, api: AgentApi, status: number, message: string): void {
  if (res.headersSent || res.destroyed) return;
  const body =
    api === 'anthropic'
      ? {
          type: 'error',
          error: { type: status === 401 ? 'authentication_error' : 'invalid_request_error', message },
        }
      : {
          error: { message, type: 'invalid_request_error', code: status === 401 ? 'invalid_api_key' : null },
        };
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** An API answer kept whole (an error's status and body), to give the CLI as the API gave it. */
interface KeptAnswer {
  status: number;
  contentType: string;
  text: string;
}

interface LastAnswer {
  answer?: KeptAnswer | undefined;
}

function sendAnswer(res: ServerResponse, answer: KeptAnswer): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(answer.status, {
    'content-type': answer.contentType,
    'content-length': Buffer.byteLength(answer.text),
  });
  res.end(answer.text);
}

function upstreamUrl(upstream: AgentUpstream, path: string): string {
  const base = upstream.baseUrl.replace(/\/+$/, '');
  return upstream.api === 'anthropic' ? `${base}${path}` : `${base}${path.slice('/v1'.length)}`;
}

function upstreamHeaders(req: IncomingMessage, upstream: AgentUpstream): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of PASSED_HEADERS) {
    const value = req.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  const encoding = req.headers['content-encoding'];
  if (typeof encoding === 'string') headers['content-encoding'] = encoding;
  if (upstream.api === 'anthropic') headers['x-api-key'] = upstream.key;
  else headers['authorization'] = `Bearer ${upstream.key}`;
  // Plain bytes back: they are parsed for usage and kept in the cache as they are.
  headers['accept-encoding'] = 'identity';
  return headers;
}

export async function startAgentProxy(options: AgentProxyOptions): Promise<AgentProxy> {
  const { upstream, cache } = options;
  const api = upstream.api;
  const token = `arp-${randomBytes(24).toString('hex')}`;
  const failures: unknown[] = [];
  const seen = new Map<string, number>();
  const stats = { calls: 0, hits: 0, misses: 0 };
  let answered = 0;
  let limitReached = false;
  let url = '';

  /** Reports the call; returns what it cost (null: no price). */
  const report = (
    text: string,
    ok: boolean,
    cached: boolean,
    started: number,
    attempts = 1,
  ): number | null => {
    const { model, usage } = readCallUsage(api, text);
    const price = model === undefined ? undefined : lookUpBuiltInPrice(model);
    const costUsd = cached ? 0 : costOrNull(price, usage);
    options.onModelCall?.({
      model: model ?? 'unknown',
      ok,
      inputTokens: usage.inputTokens,
      outputTokens: usage.outputTokens,
      ...(usage.cacheReadTokens === undefined ? {} : { cacheReadTokens: usage.cacheReadTokens }),
      ...(usage.cacheWriteTokens === undefined ? {} : { cacheWriteTokens: usage.cacheWriteTokens }),
      costUsd,
      cached,
      attempts,
      latencyMs: cached ? 0 : monotonicMs() - started,
    });
    return costUsd;
  };

  /** The request's JSON body, or undefined when it is compressed or not JSON. */
  function bodyOf(req: IncomingMessage, raw: Buffer): unknown {
    if (req.headers['content-encoding'] !== undefined) return undefined;
    try {
      return JSON.parse(raw.toString('utf8'));
    } catch {
      return undefined;
    }
  }

  /** The key of this request, or undefined when it cannot be cached (no cache, a compressed body). */
  function keyOf(path: string, body: unknown): string | undefined {
    if (cache === undefined || body === undefined) return undefined;
    // Its own address too: under `process` isolation a new port for every case, and an `env` shows it.
    const key = { ...cache.key, hostPaths: [...cache.key.hostPaths, { path: url, as: 'http://proxy' }] };
    const probe = agentCacheKey(path, body, key, 0);
    const occurrence = seen.get(probe) ?? 0;
    seen.set(probe, occurrence + 1);
    return occurrence === 0 ? probe : agentCacheKey(path, body, key, occurrence);
  }

  /**
   * One upstream attempt: the answer when it may go to the CLI (a success, or an error that a retry
   * would not change); a retryable error (429, 5xx, a connection that failed) is thrown for
   * withRetries, the answer's text kept in `last` so the CLI gets it if every attempt fails.
   */
  async function attempt(
    req: IncomingMessage,
    path: string,
    raw: Buffer,
    signal: AbortSignal,
    last: LastAnswer,
  ) {
    let answer: Response;
    try {
      answer = await fetch(upstreamUrl(upstream, path), {
        method: 'POST',
        headers: upstreamHeaders(req, upstream),
        body: raw,
        signal,
      });
    } catch (error) {
      if (signal.aborted) throw new ProviderError('aborted', 'call aborted', { cause: error });
      last.answer = undefined;
      throw new ProviderError('network', `the agent's API could not be reached: ${String(error)}`, {
        cause: error,
      });
    }
    if (answer.status < 400) return answer;
    const text = await answer.text();
    const contentType = answer.headers.get('content-type') ?? 'application/json';
    last.answer = { status: answer.status, contentType, text };
    const problem = classifyHttpError(answer.status, text, answer.headers, {
      label: "the agent's API",
      keyEnv: undefined,
      keySent: true,
      secrets: [upstream.key],
    });
    if (problem.retryable) throw problem;
    return last.answer;
  }

  async function forward(
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    raw: Buffer,
    key: string | undefined,
    hold: SpendHold | undefined,
  ) {
    const started = monotonicMs();
    let spent = 0;
    const gone = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) gone.abort();
    });
    const onAbort = () => gone.abort();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const last: LastAnswer = {};
    try {
      const { value: answer, attempts } = await withRetries(
        () => attempt(req, path, raw, gone.signal, last),
        { signal: gone.signal },
      );
      if (!(answer instanceof Response)) {
        // An error no retry would change: the CLI reads it as the API said it.
        sendAnswer(res, answer);
        spent = report(answer.text, false, false, started, attempts) ?? 0;
        return;
      }
      const contentType = answer.headers.get('content-type') ?? 'application/json';
      res.writeHead(answer.status, { 'content-type': contentType });
      const chunks: Buffer[] = [];
      if (answer.body !== null) {
        for await (const chunk of answer.body) {
          const bytes = Buffer.from(chunk);
          chunks.push(bytes);
          res.write(bytes);
        }
      }
      res.end();
      const text = Buffer.concat(chunks).toString('utf8');
      answered += 1;
      spent = report(text, true, false, started, attempts) ?? 0;
      if (key !== undefined && cache !== undefined) {
        const entry: CachedCall = { v: 1, kind: 'agent-call', contentType, body: text };
        await writeFileAtomic(cacheFilePath(cache.dir, key), `${JSON.stringify(entry)}\n`, {
          durable: false,
        });
      }
    } catch (error) {
      if (gone.signal.aborted) {
        if (!res.writableEnded) res.destroy();
        return;
      }
      // Every attempt failed: the last answer the API gave, else a gateway error.
      const given = last.answer;
      if (given !== undefined && !res.headersSent) {
        sendAnswer(res, given);
        spent = report(given.text, false, false, started, DEFAULT_MAX_RETRIES + 1) ?? 0;
        return;
      }
      failures.push(error);
      sendError(res, api, 502, 'the model call failed inside the runner');
      if (!res.writableEnded) res.destroy();
    } finally {
      options.signal?.removeEventListener('abort', onAbort);
      hold?.settle(spent);
    }
  }

  /** The budget's hold on this call, or 'refused' (answered with an API error) when it cannot fit. */
  async function holdFor(
    res: ServerResponse,
    body: unknown,
    raw: Buffer,
  ): Promise<SpendHold | undefined | 'refused'> {
    const worst = options.holdSpend === undefined ? null : agentCallWorstUsd(api, body, raw.toString('utf8'));
    if (worst === null || options.holdSpend === undefined) return undefined;
    try {
      return await options.holdSpend(worst);
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      sendError(res, api, 400, `autoresearch: the call was not made: ${why}`);
      return 'refused';
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (!sameSecret(presentedKey(req), token)) {
      req.resume();
      sendError(res, api, 401, 'invalid or missing token');
      return;
    }
    if (req.method !== 'POST' || path !== ROUTE[api]) {
      req.resume();
      sendError(res, api, 404, `no route ${req.method} ${path}`);
      return;
    }
    const raw = await readBody(req);
    if (raw === undefined) {
      sendError(res, api, 413, 'the request body is too large');
      return;
    }
    if (options.maxCalls !== undefined && answered >= options.maxCalls) {
      limitReached = true;
      sendError(res, api, 400, `autoresearch: this case's max_turns (${options.maxCalls}) is reached`);
      return;
    }
    stats.calls += 1;
    const body = bodyOf(req, raw);
    const key = keyOf(path, body);
    const hit = key === undefined || cache === undefined ? undefined : await readCached(cache.dir, key);
    if (hit !== undefined) {
      stats.hits += 1;
      answered += 1;
      res.writeHead(200, { 'content-type': hit.contentType, 'content-length': Buffer.byteLength(hit.body) });
      res.end(hit.body);
      report(hit.body, true, true, monotonicMs());
      return;
    }
    stats.misses += 1;
    const hold = await holdFor(res, body, raw);
    if (hold === 'refused') return;
    await forward(req, res, path, raw, key, hold);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      failures.push(error);
      sendError(res, api, 500, 'the proxy failed');
    });
  });
  const { unixSocket } = options.listen;
  url = await listenOnLoopback(server, unixSocket);
  return {
    url,
    anthropicBaseUrl: url,
    openaiBaseUrl: `${url}/v1`,
    token,
    failures,
    get served() {
      return answered;
    },
    stats,
    get limitReached() {
      return limitReached;
    },
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
