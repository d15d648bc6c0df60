/**
 * A stand-in LLM API on 127.0.0.1 (random port) for the benchmarks: the Anthropic Messages
 * (POST /v1/messages) and OpenAI Chat Completions (POST /v1/chat/completions) wire formats,
 * non-streaming JSON, a fixed latency per call, replies from a `respond(request)` function
 * (by default the built simulated model, so judges and mutators get answers they can parse).
 *
 * It runs in the benchmark's own process, so the tool being measured pays for none of it,
 * and its log timestamps share the benchmark's clock (performance.now()).
 */
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import { performance } from 'node:perf_hooks';
import { distModule } from './paths.mjs';

function textOf(content) {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content.map((b) => (b && typeof b.text === 'string' ? b.text : '')).join('');
  return '';
}

/** The request both APIs reduce to: model, system, user/assistant messages, temperature. */
export function normaliseRequest(api, body) {
  const raw = Array.isArray(body.messages) ? body.messages : [];
  const messages = raw.map((m) => ({ role: String(m.role), content: textOf(m.content) }));
  if (api === 'anthropic') {
    return {
      api,
      model: String(body.model ?? ''),
      ...(body.system === undefined ? {} : { system: textOf(body.system) }),
      messages,
      ...(typeof body.temperature === 'number' ? { temperature: body.temperature } : {}),
    };
  }
  const systems = messages.filter((m) => m.role === 'system' || m.role === 'developer');
  return {
    api,
    model: String(body.model ?? ''),
    ...(systems.length === 0 ? {} : { system: systems.map((m) => m.content).join('\n') }),
    messages: messages.filter((m) => m.role !== 'system' && m.role !== 'developer'),
    ...(typeof body.temperature === 'number' ? { temperature: body.temperature } : {}),
  };
}

function successBody(request, reply, index) {
  const inputChars =
    (request.system ?? '').length + request.messages.reduce((n, m) => n + m.content.length, 0);
  const input = reply.inputTokens ?? Math.max(1, Math.ceil(inputChars / 4));
  const output = reply.outputTokens ?? Math.max(1, Math.ceil(reply.text.length / 4));
  if (request.api === 'anthropic') {
    return {
      id: `msg_bench_${index}`,
      type: 'message',
      role: 'assistant',
      model: request.model,
      content: [{ type: 'text', text: reply.text }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: input, output_tokens: output },
    };
  }
  return {
    id: `chatcmpl-bench-${index}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: request.model,
    choices: [{ index: 0, message: { role: 'assistant', content: reply.text }, finish_reason: 'stop' }],
    usage: { prompt_tokens: input, completion_tokens: output, total_tokens: input + output },
  };
}

/** Replies from the built simulated model (deterministic for the same request). */
export async function createSimResponder() {
  const { simulateCompletion } = await import(distModule('providers/sim/simulate.js'));
  return (request) => {
    const result = simulateCompletion({
      ...(request.system === undefined ? {} : { system: request.system }),
      messages: request.messages.filter((m) => m.role === 'user' || m.role === 'assistant'),
      model: request.model,
      ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
    });
    return {
      text: result.text,
      inputTokens: result.usage.inputTokens,
      outputTokens: result.usage.outputTokens,
    };
  };
}

/** What identifies a request's content (for counting repeats): the normalised request, hashed. */
export function requestDigest(request) {
  return createHash('sha256')
    .update(
      JSON.stringify([request.model, request.system ?? '', request.messages, request.temperature ?? null]),
    )
    .digest('hex');
}

/**
 * Options: `latencyMs` (each reply is sent this long after its request arrived, whatever
 * computing it took), `respond(request)` → { text } (default: the simulated model). Every request is logged: { index, api, digest, receivedAt, finishedAt }.
 */
export async function startFakeLlmServer(options = {}) {
  let latencyMs = options.latencyMs ?? 0;
  const respond = options.respond ?? (await createSimResponder());
  const log = [];
  let inFlight = 0;
  let maxInFlight = 0;

  const server = createServer((req, res) => {
    const receivedAt = performance.now();
    const path = (req.url ?? '/').split('?')[0];
    const api =
      req.method === 'POST' && path === '/v1/messages'
        ? 'anthropic'
        : req.method === 'POST' && path === '/v1/chat/completions'
          ? 'openai'
          : undefined;
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const send = (status, body) => {
        const text = JSON.stringify(body);
        res.writeHead(status, {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(text),
        });
        res.end(text);
      };
      if (api === undefined) {
        send(404, { error: { type: 'not_found', message: `no route ${req.method} ${path}` } });
        return;
      }
      let request;
      try {
        request = normaliseRequest(api, JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch {
        send(400, { error: { type: 'invalid_request_error', message: 'body is not JSON' } });
        return;
      }
      const entry = { index: log.length, api, digest: requestDigest(request), receivedAt, finishedAt: NaN };
      log.push(entry);
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      // The reply is computed at once and sent when the latency has passed since the request
      // arrived: a call takes latencyMs in all, like a real API whose latency includes its work.
      let body;
      let failure;
      try {
        body = successBody(request, respond(request), entry.index);
      } catch (error) {
        failure = error;
      }
      setTimeout(
        () => {
          inFlight -= 1;
          if (body === undefined) {
            send(500, { error: { type: 'api_error', message: `fake server: ${String(failure)}` } });
            return;
          }
          send(200, body);
          entry.finishedAt = performance.now();
        },
        Math.max(0, latencyMs - (performance.now() - receivedAt)),
      );
    });
  });
  // Clients keep connections open between calls; the default 5 s idle limit is plenty.
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    port,
    anthropicBaseUrl: url,
    openaiBaseUrl: `${url}/v1`,
    log,
    get maxInFlight() {
      return maxInFlight;
    },
    setLatency(ms) {
      latencyMs = ms;
    },
    reset() {
      log.length = 0;
      maxInFlight = inFlight;
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
