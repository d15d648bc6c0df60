/**
 * The loopback model proxy (docs/design/judge-protocol.md). A judge or grader process gets this
 * server's address and a one-time token instead of the user's key; every call it makes becomes a
 * CompletionRequest for the run's ModelClient, which adds the real key and applies the run's
 * cache, concurrency limit, retries and cost accounting.
 *
 * Sample index: a request's `x-autoresearch-sample` header gives it (the built-in judge and
 * grader send it); without one the proxy numbers identical requests itself (the n-th identical
 * request in this proxy's life gets sampleIndex n), so `samples: k` identical calls land on
 * distinct cache entries, while a later evaluation of the same text starts again at 0 and is
 * served from the cache.
 *
 * Refresh: a retry must not be served the reply it is retrying. A request with
 * `x-autoresearch-refresh: 1` (without a sample header: the latest sample of that request), and
 * every request of a proxy started with `refresh` (the runner retrying a whole attempt), skips
 * the cache and replaces its entry (proxy-hints.ts).
 *
 * Fresh (bias probes, drift anchors: docs/design/judge-reliability.md): every call skips the cache
 * and replaces its entry, and its sample index starts at `sampleBase`, so a re-judging is a new
 * sample of the model, never the reply an earlier evaluation got — while identical requests within
 * it stay distinct samples.
 */
import { listenOnLoopback, presentedKey, readBody, sameSecret } from './proxy-request.js';
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { linkSignals } from '../providers/linked-signal.js';
import type { ModelClient } from '../providers/types.js';
import {
  formatWireFailure,
  formatWireReply,
  parseWireRequest,
  type WireApi,
  type WireReply,
  type WireRequest,
  wireError,
} from './proxy-wire.js';
import { sha256Hex } from '../sha256.js';
import { readProxyHints } from './proxy-hints.js';
import { clampToRole } from './proxy-sampling.js';
import type { ProxyAccess } from './sandbox-env.js';

export interface ModelProxy extends ProxyAccess {
  /** http://127.0.0.1:PORT (under `os` isolation, the relay's address inside the sandbox) */
  url: string;
  /** Every failed model call the proxy passed on, in order (the runner decides what stops a run). */
  readonly failures: readonly unknown[];
  /** Model calls answered successfully. */
  readonly served: number;
  close(): Promise<void>;
}

export interface ModelProxyOptions {
  client: ModelClient;
  /** The run's abort: in-flight calls are cancelled with it. */
  signal?: AbortSignal;
  /** Every call skips the cache and replaces its entry: the runner is retrying an unusable attempt. */
  refresh?: boolean;
  /** Every call skips the cache, with sample indexes counted from `sampleBase` (see above). */
  fresh?: { sampleBase: number };
  /**
   * `os` isolation (docs/design/isolation.md): listen on this Unix socket, bound into the sandbox,
   * instead of a loopback port; the program reaches it at `relayUrl` (sandbox-relay.ts).
   */
  unixSocket?: { path: string; relayUrl: string };
}

const ROUTES: Record<string, WireApi> = {
  '/v1/messages': 'anthropic',
  '/v1/chat/completions': 'openai',
};

function send(res: ServerResponse, reply: WireReply): void {
  if (res.headersSent || res.destroyed) return;
  const body = JSON.stringify(reply.body);
  res.writeHead(reply.status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}

function requestKey(request: WireRequest): string {
  return sha256Hex(JSON.stringify(request));
}

export async function startModelProxy(options: ModelProxyOptions): Promise<ModelProxy> {
  const { client } = options;
  const token = `arp-${randomBytes(24).toString('hex')}`;
  const seen = new Map<string, number>();
  const failures: unknown[] = [];
  let served = 0;

  /** The next sample of an identical request; a refresh repeats the latest one instead. */
  function numberRequest(key: string, refresh: boolean): number {
    const count = seen.get(key) ?? 0;
    if (refresh && count > 0) return count - 1;
    seen.set(key, count + 1);
    return count;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const api: WireApi = ROUTES[path] ?? (path.includes('chat') ? 'openai' : 'anthropic');
    if (!sameSecret(presentedKey(req), token)) {
      req.resume();
      send(
        res,
        wireError(
          api,
          401,
          'authentication_error',
          'invalid_request_error',
          'invalid or missing token',
          'invalid_api_key',
        ),
      );
      return;
    }
    if (req.method !== 'POST' || ROUTES[path] === undefined) {
      req.resume();
      send(
        res,
        wireError(api, 404, 'not_found_error', 'invalid_request_error', `no route ${req.method} ${path}`),
      );
      return;
    }
    const raw = (await readBody(req))?.toString('utf8');
    if (raw === undefined) {
      send(
        res,
        wireError(api, 413, 'request_too_large', 'invalid_request_error', 'the request body is too large'),
      );
      return;
    }
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      send(
        res,
        wireError(api, 400, 'invalid_request_error', 'invalid_request_error', 'the body is not JSON'),
      );
      return;
    }
    const parsed = parseWireRequest(api, body);
    if (!parsed.ok) {
      send(res, wireError(api, 400, 'invalid_request_error', 'invalid_request_error', parsed.message));
      return;
    }
    const request = clampToRole(parsed.request, client.entry);
    const hints = readProxyHints(req.headers);
    const { fresh } = options;
    const refresh = options.refresh === true || hints.refresh || fresh !== undefined;
    const numbered = hints.sample ?? numberRequest(requestKey(request), refresh && fresh === undefined);
    const sampleIndex = (fresh?.sampleBase ?? 0) + numbered;
    // A judge that gives up (or is killed) cancels its call.
    const gone = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) gone.abort();
    });
    const linked = linkSignals(options.signal, gone.signal);
    try {
      const result = await client.complete({
        ...request,
        sampleIndex,
        ...(refresh ? { refresh } : {}),
        signal: linked.signal,
      });
      served += 1;
      send(res, formatWireReply(api, result, client.entry.model ?? client.entry.provider, `proxy${served}`));
    } catch (error) {
      // A call cancelled because the judge went away (timeout, kill) says nothing about the model.
      if (!gone.signal.aborted) failures.push(error);
      send(res, formatWireFailure(api, error));
    } finally {
      linked.dispose();
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      failures.push(error);
      send(res, formatWireFailure('anthropic', error));
    });
  });
  const { unixSocket } = options;
  const url = await listenOnLoopback(server, unixSocket);
  return {
    url,
    anthropicBaseUrl: url,
    openaiBaseUrl: `${url}/v1`,
    token,
    failures,
    get served() {
      return served;
    },
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
