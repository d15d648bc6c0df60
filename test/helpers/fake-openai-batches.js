/**
 * OpenAI's Files and Batch APIs on the fake server (see fake-llm-batches.js for the behaviour):
 * a JSONL input file uploaded as multipart, a batch over it, its output and error files.
 */
import { DAY_MS, json, openaiError, parseJson, unix } from './fake-batch-json.js';

/** The routes, over the shared store (fake-llm-batches.js). */
export function openaiBatchRoutes(store) {
  const { nextId, limits, newBatch, count, find, settle, files } = store;

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

  function fileRoute(method, path) {
    if (method === 'POST' && path === '/v1/files') return { api: 'openai', handle: uploadFile };
    const m = method === 'GET' ? /^\/v1\/files\/([^/]+)(\/content)?$/.exec(path) : null;
    if (m === null) return undefined;
    const [, id, content] = m;
    return {
      api: 'openai',
      handle: () => {
        const file = files.get(id);
        if (file === undefined) return openaiError(404, `file ${id} not found`);
        if (content === undefined) return json(200, openaiFile(file));
        return { status: 200, headers: { 'content-type': 'application/octet-stream' }, body: file.content };
      },
    };
  }

  function batchRoute(method, path) {
    if (method === 'POST' && path === '/v1/batches')
      return { api: 'openai', handle: (raw) => createOpenai(raw) };
    // The list (newest first), as `batches.list` pages it; enough to tell a server with batches.
    if (method === 'GET' && path === '/v1/batches')
      return {
        api: 'openai',
        handle: () => {
          const data = [...store.batches()].filter((b) => b.api === 'openai').reverse();
          return json(200, { object: 'list', data: data.map((b) => openaiBatch(b)), has_more: false });
        },
      };
    const m = /^\/v1\/batches\/([^/]+)(\/cancel)?$/.exec(path);
    if (m === null) return undefined;
    const [, id, cancel] = m;
    return {
      api: 'openai',
      handle: async () => {
        const batch = find('openai', id);
        if (batch === undefined) return openaiError(404, `batch ${id} not found`);
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

  return (method, path) => fileRoute(method, path) ?? batchRoute(method, path);
}
