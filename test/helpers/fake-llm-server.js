/**
 * A fake LLM server on 127.0.0.1 (random port) speaking the Anthropic Messages and OpenAI
 * Chat Completions wire formats as the SDKs send them (our adapters never stream), and the
 * streaming Messages and Responses APIs as the Claude Code and Codex CLIs call them. The tests and the benchmarks share it: it is plain JavaScript, typed by
 * fake-llm-server.d.ts, because the benchmarks run under node without a TypeScript loader.
 *
 *   const server = await startFakeLlmServer({ respond: (req) => `echo: ${req.messages[0]?.content}` });
 *   entry = { provider: 'anthropic', model: 'claude-sonnet-4-5', base_url: server.anthropicBaseUrl };
 *   entry = { provider: 'openai', model: 'gpt-4o', base_url: server.openaiBaseUrl };   // …/v1
 *   await server.close();
 *
 * Routes (ROUTES below; a new endpoint is one more entry): POST /v1/messages (Anthropic),
 * POST /v1/chat/completions (OpenAI), POST /v1/responses (the OpenAI Responses API, api
 * `openai-responses`, which the Codex CLI speaks: fake-responses-wire.js); anything else 404.
 * A request with `stream: true` to the Messages or Responses API is answered as server-sent
 * events (fake-llm-sse.js) made from the same reply; faults still answer with a status and JSON.
 *
 * Options (all optional; `server.configure(partial)` changes them between phases of a test):
 * - `respond(req)`: called for every request that is not faulted, with a normalised
 *   `FakeRequest { api, model, system?, messages, tools?, output?, temperature?, max_tokens?,
 *   body, headers, path, index }`. OpenAI system (or developer) messages are lifted into
 *   `system`; `messages` are provider-neutral turns `{role, content: string, toolCalls?}` and
 *   `{role: 'tool', toolCallId, content}` (Anthropic text blocks joined into one string,
 *   `tool_use` blocks read as `toolCalls`, a user turn's `tool_result` blocks as tool turns
 *   before it; OpenAI `tool_calls` arguments parsed); `tools` are `{name, description?,
 *   parameters}` and `output` the schema asked for (`{name?, schema, strict?}`). Returns a
 *   string (the reply text) or a `ReplySpec { text?, toolCalls?: {id?, name, arguments}[],
 *   usage?: { input_tokens?, output_tokens? }, stopReason?, status?, headers?, rawBody?,
 *   fault? }`, sync or async. `toolCalls` answer with Anthropic `tool_use` blocks / OpenAI
 *   `tool_calls` (a string `arguments` is sent verbatim, to script broken JSON); `rawBody` is
 *   sent verbatim; `fault` injects a fault for this request. Default: replies "ok".
 *   Usage defaults to ceil(characters / 4) for input and output; stopReason defaults to
 *   `end_turn` / `tool_use` (Anthropic) or `stop` / `tool_calls` (OpenAI) and is sent as
 *   given otherwise.
 * - `latencyMs`: a number or `(req) => number`: the answer (faults included) leaves that long
 *   after the request was read, whatever computing the reply took, like a real API whose
 *   latency includes its work.
 * - `faults`: a queue of `FaultSpec | null`, consumed one per request in arrival order
 *   (`null` = serve normally); `server.queueFaults(...)` appends more.
 * - `faultRate: { rate, seed, kinds }`: when the queue is empty, each request is faulted with
 *   probability `rate`, picking a kind from `kinds`, from a seeded PRNG (reproducible).
 * - `requireKey`: when set, a request whose key (x-api-key / Authorization: Bearer) differs
 *   gets a 401. The key value is never stored in the log.
 *
 * Faults (`FaultSpec` = a kind or `{ kind, retryAfterS?, retryAfterMs?, message? }`):
 *   server_error 500 · unavailable 503 · overloaded 529 · rate_limit 429 (+ retry-after /
 *   retry-after-ms headers when given) · unauthorized 401 · forbidden 403 · bad_request 400 ·
 *   not_found 404 · credit (Anthropic 400 "credit balance is too low", OpenAI 429
 *   `insufficient_quota`) · malformed (200 with invalid JSON) · empty (200 with an empty body)
 *   · truncated (200, Content-Length promised, socket destroyed half-way) · hang (never
 *   answers; released when the client gives up or on close()).
 *
 * `respondWith(provider)` turns any Provider (e.g. `createSimProvider(entry)`) into a `respond`
 * handler, so a test gets realistic replies, usage and stop reasons over the real wire format.
 *
 * As a proxy (HTTPS_PROXY=server.url) it refuses every `CONNECT` and logs it (api `proxy`, path
 * `host:port`): a test sees which hosts a CLI tried to reach beyond the fake API.
 *
 * `server.log` holds one `LogEntry` per request: index, api, method, path, body (parsed), raw
 * (the body's text as received), headers (key headers left out), hasAuth, digest (of the normalised request), status sent (0
 * for hang/truncated cut-offs), fault kind, receivedAt / finishedAt (performance.now() ms, the
 * clock of the process that started the server) and inFlightOnArrival (requests in flight
 * including this one). `server.maxInFlight` is the highest inFlightOnArrival seen;
 * `server.reset()` clears the log.
 */
import { createServer } from 'node:http';
import { performance } from 'node:perf_hooks';
import { createBatchApis } from './fake-llm-batches.js';
import { createPromptCache } from './fake-prompt-cache.js';
import { streamOf } from './fake-llm-sse.js';
import {
  errorBody,
  normalise,
  planFault,
  presentedKey,
  requestDigest,
  successBody,
} from './fake-llm-wire.js';

/** "METHOD path" → which API's completion it serves. */
const ROUTES = {
  'POST /v1/messages': 'anthropic',
  'POST /v1/chat/completions': 'openai',
  'POST /v1/responses': 'openai-responses',
};

/** Each API has its own words for why a reply ended (the Provider interface speaks Anthropic's). */
const OPENAI_STOP = { end_turn: 'stop', max_tokens: 'length', tool_use: 'tool_calls' };

/** The normalised turns as a Provider's ChatMessages (user, assistant with its calls, tool). */
function chatMessages(messages) {
  return messages
    .filter((m) => m.role === 'user' || m.role === 'assistant' || m.role === 'tool')
    .map((m) => {
      if (m.role === 'tool') return { role: 'tool', toolCallId: m.toolCallId ?? '', content: m.content };
      return {
        role: m.role,
        content: m.content,
        ...(m.role === 'assistant' && m.toolCalls !== undefined ? { toolCalls: m.toolCalls } : {}),
      };
    });
}

/**
 * A `respond` handler that asks `provider` for the reply (system, messages with their tool
 * turns, tools, output schema, temperature, max_tokens) and answers with its text and tool calls.
 */
export function respondWith(provider) {
  return async (req) => {
    const result = await provider.complete({
      ...(req.system === undefined ? {} : { system: req.system }),
      messages: chatMessages(req.messages),
      ...(req.tools === undefined ? {} : { tools: req.tools }),
      ...(req.output === undefined
        ? {}
        : { output: { name: req.output.name ?? 'output', schema: req.output.schema } }),
      ...(req.temperature === undefined ? {} : { temperature: req.temperature }),
      ...(req.max_tokens === undefined ? {} : { maxTokens: req.max_tokens }),
    });
    const stop = result.stopReason;
    const stopReason = req.api === 'openai' && stop !== undefined ? (OPENAI_STOP[stop] ?? stop) : stop;
    return {
      text: result.text,
      ...(result.toolCalls === undefined || result.toolCalls.length === 0
        ? {}
        : { toolCalls: result.toolCalls }),
      usage: { input_tokens: result.usage.inputTokens, output_tokens: result.usage.outputTokens },
      ...(stopReason === undefined ? {} : { stopReason }),
    };
  };
}

/** mulberry32: reproducible fault spreads from a seed. */
function seededRandom(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function withoutKeys(headers) {
  const { 'x-api-key': _key, authorization: _auth, ...rest } = headers;
  return rest;
}

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function wait(ms) {
  return ms > 0 ? new Promise((r) => setTimeout(r, ms)) : Promise.resolve();
}

export async function startFakeLlmServer(initial = {}) {
  let options = { ...initial };
  let queue = [...(initial.faults ?? [])];
  let random = seededRandom(initial.faultRate?.seed ?? 1);
  const log = [];
  const hanging = new Set();
  let inFlight = 0;
  let maxInFlight = 0;
  let counter = 0;
  const promptCache = createPromptCache(initial.promptCache);

  function nextFault() {
    if (queue.length > 0) return queue.shift() ?? null;
    const rate = options.faultRate;
    if (rate === undefined || rate.kinds.length === 0) return null;
    if (random() >= rate.rate) return null;
    return rate.kinds[Math.floor(random() * rate.kinds.length)] ?? null;
  }

  /** The fault this request meets: the queue's or the fault rate's, else a 401 for a wrong key. */
  function faultFor(req) {
    const fault = nextFault();
    if (fault !== null || options.requireKey === undefined) return fault;
    return presentedKey(req.headers) === options.requireKey ? null : 'unauthorized';
  }

  function latencyFor(request) {
    const latency = options.latencyMs;
    return typeof latency === 'function' ? latency(request) : (latency ?? 0);
  }

  /** Answers one completion request in `api`'s format: a fault, or `respond`'s reply. */
  async function serveCompletion(api, raw, entry, req, res, send) {
    const readAt = performance.now();
    let body;
    try {
      body = JSON.parse(raw);
    } catch {
      send({
        status: 400,
        headers: {},
        body: errorBody(api, 'invalid_request_error', 'body is not JSON', null),
      });
      return;
    }
    entry.body = body;
    const request = normalise(api, body, req.headers, entry.path, entry.index);
    entry.digest = requestDigest(request);
    const latency = latencyFor(request);
    let fault = faultFor(req);
    let reply = {};
    if (fault === null) {
      const answered = await (options.respond ?? (() => 'ok'))(request);
      reply = typeof answered === 'string' ? { text: answered } : answered;
      fault = reply.fault ?? null;
    }
    await wait(latency - (performance.now() - readAt));
    if (fault !== null) {
      const spec = typeof fault === 'string' ? { kind: fault } : fault;
      entry.fault = spec.kind;
      const planned = planFault(api, spec);
      if (planned === 'hang') {
        hanging.add(res);
        res.on('close', () => hanging.delete(res));
        return;
      }
      if (planned === 'truncated') {
        const full = successBody(request, { text: 'this reply will be cut off half-way through' });
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(full) });
        res.write(full.slice(0, Math.floor(full.length / 2)));
        // Let the partial chunk leave before the connection dies mid-body.
        setTimeout(() => res.destroy(), 5);
        return;
      }
      send(planned);
      return;
    }
    const full = reply.rawBody ?? successBody(request, reply, promptCache[api](body));
    const stream = body.stream === true && reply.rawBody === undefined ? streamOf(api, full) : undefined;
    send({
      status: reply.status ?? 200,
      headers: {
        'content-type': stream === undefined ? 'application/json' : 'text/event-stream',
        ...(reply.headers ?? {}),
      },
      body: stream ?? full,
    });
  }

  /** One request of a batch, answered as a single call would be (no latency: the batch has its own). */
  async function answerInBatch(api, body, fault, customId) {
    const path = api === 'anthropic' ? '/v1/messages' : '/v1/chat/completions';
    const request = { ...normalise(api, body, {}, path, counter++), customId };
    let spec = fault;
    let reply = {};
    if (spec === null) {
      const answered = await (options.respond ?? (() => 'ok'))(request);
      reply = typeof answered === 'string' ? { text: answered } : answered;
      spec = reply.fault ?? null;
    }
    if (spec !== null) {
      const planned = planFault(api, typeof spec === 'string' ? { kind: spec } : spec);
      // A batch has no connection to hang or cut, nor a body to garble: those become a server error.
      if (planned === 'hang' || planned === 'truncated' || planned.status === 200)
        return planFault(api, { kind: 'server_error' });
      return planned;
    }
    return {
      status: reply.status ?? 200,
      body: reply.rawBody ?? successBody(request, reply, promptCache[api](body)),
    };
  }

  let url = '';
  const batchApis = createBatchApis({
    urlOf: () => url,
    answer: answerInBatch,
    settings: () => options.batch ?? {},
  });

  /** A batch or file route: its handler's answer, after the faults and key check every request gets. */
  async function serveBatchRoute(handler, raw, entry, req, send) {
    const fault = faultFor(req);
    if (fault !== null) {
      const spec = typeof fault === 'string' ? { kind: fault } : fault;
      entry.fault = spec.kind;
      const planned = planFault(handler.api, spec);
      if (planned !== 'hang' && planned !== 'truncated') {
        send(planned);
        return;
      }
      send(planFault(handler.api, { kind: 'server_error' }));
      return;
    }
    const answered = await handler.handle(raw, req.headers);
    if (answered === undefined) {
      send({
        status: 404,
        headers: {},
        body: errorBody(handler.api, 'not_found', `no route ${entry.method} ${entry.path}`, null),
      });
      return;
    }
    send(answered);
  }

  async function handle(req, res) {
    const receivedAt = performance.now();
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    const index = counter++;
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const method = req.method ?? 'GET';
    const api = ROUTES[`${method} ${path}`] ?? 'unknown';
    const entry = {
      index,
      api,
      method,
      path,
      body: undefined,
      raw: undefined,
      headers: withoutKeys(req.headers),
      hasAuth: presentedKey(req.headers) !== undefined,
      digest: undefined,
      status: 0,
      fault: undefined,
      receivedAt,
      finishedAt: receivedAt,
      inFlightOnArrival: inFlight,
    };
    log.push(entry);
    let done = false;
    const finish = (status) => {
      if (done) return;
      done = true;
      inFlight -= 1;
      entry.status = status;
      entry.finishedAt = performance.now();
    };
    res.on('close', () => finish(entry.status));
    const send = (planned) => {
      entry.status = planned.status;
      res.writeHead(planned.status, {
        ...planned.headers,
        'content-length': Buffer.byteLength(planned.body),
      });
      res.end(planned.body);
      finish(planned.status);
    };

    const raw = await readBody(req);
    entry.raw = raw;
    const batchRoute = api === 'unknown' ? batchApis.route(method, path) : undefined;
    if (batchRoute !== undefined) {
      entry.api = `${batchRoute.api}-batch`;
      await serveBatchRoute(batchRoute, raw, entry, req, send);
      return;
    }
    if (api === 'unknown') {
      send({
        status: 404,
        headers: {},
        body: errorBody(api, 'not_found', `no route ${method} ${path}`, null),
      });
      return;
    }
    await serveCompletion(api, raw, entry, req, res, send);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error) => {
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({ error: { message: `fake server: ${String(error)}`, type: 'server_error' } }),
        );
      } else res.destroy();
    });
  });
  // Given as HTTPS_PROXY to a CLI, the server sees (and refuses) every connection it tries to
  // make elsewhere: one `CONNECT` entry in the log, its path the host and port.
  server.on('connect', (req, socket) => {
    const at = performance.now();
    log.push({
      index: counter++,
      api: 'proxy',
      method: 'CONNECT',
      path: req.url ?? '',
      body: undefined,
      raw: undefined,
      headers: withoutKeys(req.headers),
      hasAuth: false,
      digest: undefined,
      status: 403,
      fault: undefined,
      receivedAt: at,
      finishedAt: at,
      inFlightOnArrival: inFlight,
    });
    socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = server.address().port;
  url = `http://127.0.0.1:${port}`;

  return {
    url,
    anthropicBaseUrl: url,
    openaiBaseUrl: `${url}/v1`,
    port,
    log,
    get inFlight() {
      return inFlight;
    },
    get maxInFlight() {
      return maxInFlight;
    },
    /** The batches submitted so far (fake-llm-batches.js). */
    get batches() {
      return batchApis.list();
    },
    queueFaults(...faults) {
      queue.push(...faults);
    },
    configure(partial) {
      options = { ...options, ...partial };
      if (partial.faults !== undefined) queue = [...partial.faults];
      if (partial.faultRate !== undefined) random = seededRandom(partial.faultRate.seed);
    },
    reset() {
      log.length = 0;
      maxInFlight = inFlight;
    },
    close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
