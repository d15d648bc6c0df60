/**
 * The providers' batch APIs on the fake server (SPEC 16), as the official SDK clients call them:
 *
 *   Anthropic Message Batches   POST /v1/messages/batches · GET /v1/messages/batches/{id}
 *                               GET /v1/messages/batches/{id}/results (JSONL) · POST …/{id}/cancel
 *   OpenAI Files and Batch      POST /v1/files (multipart) · GET /v1/files/{id} · GET /v1/files/{id}/content
 *                               POST /v1/batches · GET /v1/batches/{id} · POST /v1/batches/{id}/cancel
 *
 * A batch's requests are answered by the server's `respond`, as single calls would be (usage
 * and prompt-cache fields included), once the batch is due: `batch.completeAfterMs` after it was
 * created (default 0), checked when it is retrieved. Per request, `batch.fail(req)` may return a
 * fault (the request ends `errored` with that fault's error) and `batch.expire(req)` may expire
 * it (`expired`; an OpenAI batch with an expired request ends `expired`). Cancelling before the
 * batch is due cancels every request. Limits follow the providers' (Anthropic 100,000 requests
 * or 256 MB per batch, OpenAI 50,000 requests or 200 MB per file) unless `batch.limits` lowers
 * them for a test. Anthropic's `custom_id` must match ^[a-zA-Z0-9_-]{1,64}$; in both APIs it
 * must be unique within the batch.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
const LIMITS = {
  anthropic: { requests: 100_000, bytes: 256 * 1024 * 1024 },
  openai: { requests: 50_000, bytes: 200 * 1024 * 1024 },
};
const ANTHROPIC_CUSTOM_ID = /^[a-zA-Z0-9_-]{1,64}$/;

const JSON_HEADERS = { 'content-type': 'application/json' };

function json(status, value) {
  return { status, headers: JSON_HEADERS, body: JSON.stringify(value) };
}

function anthropicError(status, type, message) {
  return json(status, { type: 'error', error: { type, message } });
}

function openaiError(status, message, code = null) {
  return json(status, { error: { message, type: 'invalid_request_error', param: null, code } });
}

const iso = (ms) => (ms === null ? null : new Date(ms).toISOString());
const unix = (ms) => (ms === null ? null : Math.floor(ms / 1000));

function parseJson(text) {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/**
 * `answer(api, body, fault, customId)` answers one request of a batch: `{ status, body }`, the
 * completion's (or error's) JSON text. `settings()` returns the server's current `batch` options;
 * `urlOf()` the server's address.
 */
export function createBatchApis({ urlOf, answer, settings }) {
  const batches = new Map();
  const files = new Map();
  let counter = 0;
  const nextId = (prefix) => `${prefix}${(++counter).toString(36).padStart(6, '0')}`;

  function limits(api) {
    return { ...LIMITS[api], ...(settings().limits?.[api] ?? {}) };
  }

  /** Every request answered once, when the batch is first seen due (and not cancelled). */
  async function settle(batch) {
    if (batch.results !== undefined || batch.failed !== undefined) return;
    if (batch.cancelledAt !== null) {
      batch.results = batch.requests.map((r) => ({ customId: r.customId, kind: 'canceled' }));
      batch.endedAt = Date.now();
      return;
    }
    if (Date.now() < batch.createdAt + (settings().completeAfterMs ?? 0)) return;
    const options = settings();
    batch.results = await Promise.all(
      batch.requests.map(async (request) => {
        const probe = { api: batch.api, customId: request.customId, body: request.body };
        if (options.expire?.(probe) === true) return { customId: request.customId, kind: 'expired' };
        const fault = options.fail?.(probe);
        const answered = await answer(batch.api, request.body, fault ?? null, request.customId);
        const kind = answered.status === 200 ? 'succeeded' : 'errored';
        return { customId: request.customId, kind, status: answered.status, body: answered.body };
      }),
    );
    batch.endedAt = Date.now();
  }

  function count(batch, kind) {
    return batch.results?.filter((r) => r.kind === kind).length ?? 0;
  }

  // --- Anthropic ---------------------------------------------------------------------------

  function anthropicBatch(batch) {
    const ended = batch.endedAt !== null;
    return {
      id: batch.id,
      type: 'message_batch',
      processing_status: ended ? 'ended' : batch.cancelledAt !== null ? 'canceling' : 'in_progress',
      request_counts: {
        processing: ended ? 0 : batch.requests.length,
        succeeded: count(batch, 'succeeded'),
        errored: count(batch, 'errored'),
        canceled: count(batch, 'canceled'),
        expired: count(batch, 'expired'),
      },
      ended_at: iso(batch.endedAt),
      created_at: iso(batch.createdAt),
      expires_at: iso(batch.createdAt + DAY_MS),
      archived_at: null,
      cancel_initiated_at: iso(batch.cancelledAt),
      results_url: ended ? `${urlOf()}/v1/messages/batches/${batch.id}/results` : null,
    };
  }

  function createAnthropic(raw) {
    const parsed = parseJson(raw);
    const requests = parsed.ok ? parsed.value?.requests : undefined;
    if (!Array.isArray(requests) || requests.length === 0)
      return anthropicError(400, 'invalid_request_error', 'requests: a non-empty list is required');
    const limit = limits('anthropic');
    if (Buffer.byteLength(raw) > limit.bytes)
      return anthropicError(413, 'request_too_large', `the batch exceeds ${limit.bytes} bytes`);
    if (requests.length > limit.requests)
      return anthropicError(400, 'invalid_request_error', `a batch holds at most ${limit.requests} requests`);
    const seen = new Set();
    for (const [i, request] of requests.entries()) {
      const id = request?.custom_id;
      if (typeof id !== 'string' || !ANTHROPIC_CUSTOM_ID.test(id))
        return anthropicError(
          400,
          'invalid_request_error',
          `requests.${i}.custom_id: must match ^[a-zA-Z0-9_-]{1,64}$`,
        );
      if (seen.has(id))
        return anthropicError(
          400,
          'invalid_request_error',
          `requests.${i}.custom_id: duplicate custom_id ${id}`,
        );
      seen.add(id);
      const params = request.params;
      if (
        typeof params?.model !== 'string' ||
        !Array.isArray(params?.messages) ||
        typeof params?.max_tokens !== 'number'
      )
        return anthropicError(
          400,
          'invalid_request_error',
          `requests.${i}.params: model, max_tokens and messages are required`,
        );
    }
    const batch = newBatch(
      'anthropic',
      nextId('msgbatch_fake'),
      requests.map((r) => ({ customId: r.custom_id, body: r.params })),
    );
    return json(200, anthropicBatch(batch));
  }

  function anthropicResults(batch) {
    const lines = batch.results.map((r) => {
      if (r.kind === 'succeeded')
        return { custom_id: r.customId, result: { type: 'succeeded', message: JSON.parse(r.body) } };
      if (r.kind === 'errored')
        return { custom_id: r.customId, result: { type: 'errored', error: JSON.parse(r.body) } };
      return { custom_id: r.customId, result: { type: r.kind } };
    });
    return {
      status: 200,
      headers: { 'content-type': 'application/binary' },
      body: lines.map((line) => `${JSON.stringify(line)}\n`).join(''),
    };
  }

  // --- OpenAI ------------------------------------------------------------------------------

  function openaiFile(file) {
    return {
      id: file.id,
      object: 'file',
      bytes: file.bytes,
      created_at: unix(file.createdAt),
      filename: file.filename,
      purpose: file.purpose,
      status: 'processed',
    };
  }

  async function uploadFile(raw, headers) {
    const type = headers['content-type'] ?? '';
    if (!type.startsWith('multipart/form-data')) return openaiError(400, 'expected multipart/form-data');
    let form;
    try {
      form = await new Response(raw, { headers: { 'content-type': type } }).formData();
    } catch {
      return openaiError(400, 'the multipart body could not be read');
    }
    const file = form.get('file');
    const purpose = form.get('purpose');
    if (file === null || typeof file === 'string')
      return openaiError(400, "'file' is required", 'missing_required_parameter');
    if (typeof purpose !== 'string')
      return openaiError(400, "'purpose' is required", 'missing_required_parameter');
    const content = await file.text();
    const bytes = Buffer.byteLength(content);
    if (bytes > limits('openai').bytes)
      return openaiError(400, `the file exceeds ${limits('openai').bytes} bytes`, 'file_too_large');
    const stored = {
      id: nextId('file-fake'),
      bytes,
      filename: file.name,
      purpose,
      content,
      createdAt: Date.now(),
    };
    files.set(stored.id, stored);
    return json(200, openaiFile(stored));
  }

  /** The input file's lines as requests, or why the batch fails validation. */
  function readInputFile(file, endpoint) {
    const lines = file.content.split('\n').filter((line) => line.trim() !== '');
    if (lines.length > limits('openai').requests)
      return {
        error: {
          code: 'too_many_requests',
          message: `a batch holds at most ${limits('openai').requests} requests`,
          line: null,
        },
      };
    const requests = [];
    const seen = new Set();
    for (const [i, line] of lines.entries()) {
      const parsed = parseJson(line);
      const value = parsed.ok ? parsed.value : undefined;
      const problem =
        value === undefined
          ? 'this line is not JSON'
          : typeof value.custom_id !== 'string'
            ? 'custom_id is required'
            : seen.has(value.custom_id)
              ? `duplicate custom_id ${value.custom_id}`
              : value.method !== 'POST' || value.url !== endpoint
                ? `method must be POST and url ${endpoint}`
                : typeof value.body !== 'object' || value.body === null
                  ? 'body is required'
                  : undefined;
      if (problem !== undefined) return { error: { code: 'invalid_request', message: problem, line: i + 1 } };
      seen.add(value.custom_id);
      requests.push({ customId: value.custom_id, body: value.body });
    }
    if (requests.length === 0)
      return { error: { code: 'empty_file', message: 'the input file has no requests', line: null } };
    return { requests };
  }

  function createOpenai(raw) {
    const parsed = parseJson(raw);
    const body = parsed.ok ? parsed.value : {};
    const file = files.get(body?.input_file_id);
    if (file === undefined) return openaiError(400, `no file ${String(body?.input_file_id)}`, 'invalid_file');
    if (body.endpoint !== '/v1/chat/completions')
      return openaiError(400, 'this fake batches /v1/chat/completions only', 'invalid_endpoint');
    if (body.completion_window !== '24h') return openaiError(400, "completion_window must be '24h'");
    const read = readInputFile(file, body.endpoint);
    const batch = newBatch('openai', nextId('batch_fake'), read.requests ?? [], {
      inputFileId: file.id,
      metadata: body.metadata ?? null,
      failed: read.error,
    });
    return json(200, openaiBatch(batch, true));
  }

  function writeFile(lines, filename) {
    const content = lines.map((line) => `${JSON.stringify(line)}\n`).join('');
    const stored = {
      id: nextId('file-fake'),
      bytes: Buffer.byteLength(content),
      filename,
      purpose: 'batch_output',
      content,
      createdAt: Date.now(),
    };
    files.set(stored.id, stored);
    return stored.id;
  }

  /** The output and error files, written once when the batch ends. */
  function outputFiles(batch) {
    if (batch.outputFiles !== undefined || batch.results === undefined) return batch.outputFiles;
    const line = (r, response, error) => ({
      id: `batch_req_${r.customId}`,
      custom_id: r.customId,
      response,
      error,
    });
    const ok = batch.results.filter((r) => r.kind === 'succeeded');
    const bad = batch.results.filter((r) => r.kind === 'errored' || r.kind === 'expired');
    batch.outputFiles = {
      output:
        ok.length === 0
          ? null
          : writeFile(
              ok.map((r) =>
                line(
                  r,
                  { status_code: 200, request_id: `req_${r.customId}`, body: JSON.parse(r.body) },
                  null,
                ),
              ),
              `${batch.id}_output.jsonl`,
            ),
      error:
        bad.length === 0
          ? null
          : writeFile(
              bad.map((r) =>
                r.kind === 'expired'
                  ? line(r, null, {
                      code: 'batch_expired',
                      message: 'This request could not be executed before the completion window expired.',
                    })
                  : line(
                      r,
                      { status_code: r.status, request_id: `req_${r.customId}`, body: JSON.parse(r.body) },
                      null,
                    ),
              ),
              `${batch.id}_error.jsonl`,
            ),
    };
    return batch.outputFiles;
  }

  function openaiStatus(batch, justCreated) {
    if (batch.failed !== undefined) return justCreated ? 'validating' : 'failed';
    if (batch.results === undefined)
      return batch.cancelledAt !== null ? 'cancelling' : justCreated ? 'validating' : 'in_progress';
    if (batch.cancelledAt !== null) return 'cancelled';
    return batch.results.some((r) => r.kind === 'expired') ? 'expired' : 'completed';
  }

  function openaiBatch(batch, justCreated = false) {
    const status = openaiStatus(batch, justCreated);
    const ended = ['completed', 'expired', 'cancelled'].includes(status);
    const produced = ended ? outputFiles(batch) : undefined;
    return {
      id: batch.id,
      object: 'batch',
      endpoint: '/v1/chat/completions',
      errors: status === 'failed' ? { object: 'list', data: [batch.failed] } : null,
      input_file_id: batch.inputFileId,
      completion_window: '24h',
      status,
      output_file_id: produced?.output ?? null,
      error_file_id: produced?.error ?? null,
      created_at: unix(batch.createdAt),
      in_progress_at: justCreated || batch.failed !== undefined ? null : unix(batch.createdAt),
      expires_at: unix(batch.createdAt + DAY_MS),
      finalizing_at: ended ? unix(batch.endedAt) : null,
      completed_at: status === 'completed' ? unix(batch.endedAt) : null,
      failed_at: status === 'failed' ? unix(batch.createdAt) : null,
      expired_at: status === 'expired' ? unix(batch.endedAt) : null,
      cancelling_at: unix(batch.cancelledAt),
      cancelled_at: status === 'cancelled' ? unix(batch.endedAt) : null,
      request_counts: {
        total: batch.requests.length,
        completed: count(batch, 'succeeded'),
        failed: count(batch, 'errored') + count(batch, 'expired'),
      },
      metadata: batch.metadata ?? null,
    };
  }

  // --- shared ------------------------------------------------------------------------------

  function newBatch(api, id, requests, extra = {}) {
    const batch = {
      api,
      id,
      requests,
      createdAt: Date.now(),
      endedAt: null,
      cancelledAt: null,
      results: undefined,
      ...extra,
    };
    batches.set(id, batch);
    return batch;
  }

  function find(api, id) {
    const batch = batches.get(id);
    return batch?.api === api ? batch : undefined;
  }

  const notFound = (api, what) =>
    api === 'anthropic'
      ? anthropicError(404, 'not_found_error', `${what} not found`)
      : openaiError(404, `${what} not found`);

  /** The handler for `method path`, with the API family it belongs to; undefined: not a batch route. */
  function route(method, path) {
    return anthropicRoute(method, path) ?? fileRoute(method, path) ?? openaiRoute(method, path);
  }

  function anthropicRoute(method, path) {
    if (method === 'POST' && path === '/v1/messages/batches')
      return { api: 'anthropic', handle: (raw) => createAnthropic(raw) };
    const m = /^\/v1\/messages\/batches\/([^/]+)(\/results|\/cancel)?$/.exec(path);
    if (m === null) return undefined;
    const [, id, tail] = m;
    return {
      api: 'anthropic',
      handle: async () => {
        const batch = find('anthropic', id);
        if (batch === undefined) return notFound('anthropic', `message batch ${id}`);
        if (tail === '/cancel' && method === 'POST') {
          if (batch.endedAt === null && batch.cancelledAt === null) batch.cancelledAt = Date.now();
          return json(200, anthropicBatch(batch));
        }
        if (method !== 'GET') return undefined;
        await settle(batch);
        if (tail !== '/results') return json(200, anthropicBatch(batch));
        if (batch.endedAt === null)
          return anthropicError(400, 'invalid_request_error', `message batch ${id} has not ended yet`);
        return anthropicResults(batch);
      },
    };
  }

  function fileRoute(method, path) {
    if (method === 'POST' && path === '/v1/files') return { api: 'openai', handle: uploadFile };
    const m = method === 'GET' ? /^\/v1\/files\/([^/]+)(\/content)?$/.exec(path) : null;
    if (m === null) return undefined;
    const [, id, content] = m;
    return {
      api: 'openai',
      handle: () => {
        const file = files.get(id);
        if (file === undefined) return notFound('openai', `file ${id}`);
        if (content === undefined) return json(200, openaiFile(file));
        return { status: 200, headers: { 'content-type': 'application/octet-stream' }, body: file.content };
      },
    };
  }

  function openaiRoute(method, path) {
    if (method === 'POST' && path === '/v1/batches')
      return { api: 'openai', handle: (raw) => createOpenai(raw) };
    const m = /^\/v1\/batches\/([^/]+)(\/cancel)?$/.exec(path);
    if (m === null) return undefined;
    const [, id, cancel] = m;
    return {
      api: 'openai',
      handle: async () => {
        const batch = find('openai', id);
        if (batch === undefined) return notFound('openai', `batch ${id}`);
        if (cancel !== undefined && method === 'POST') {
          if (batch.results === undefined && batch.failed === undefined && batch.cancelledAt === null)
            batch.cancelledAt = Date.now();
          return json(200, openaiBatch(batch));
        }
        if (method !== 'GET') return undefined;
        await settle(batch);
        return json(200, openaiBatch(batch));
      },
    };
  }

  return {
    route,
    /** What was submitted, for assertions: one entry per batch, in creation order. */
    list() {
      return [...batches.values()].map((b) => ({
        id: b.id,
        api: b.api,
        customIds: b.requests.map((r) => r.customId),
        createdAt: b.createdAt,
        ended: b.endedAt !== null || b.failed !== undefined,
        cancelled: b.cancelledAt !== null,
      }));
    },
  };
}
