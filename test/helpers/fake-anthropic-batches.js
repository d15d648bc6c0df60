/**
 * Anthropic's Message Batches on the fake server (see fake-llm-batches.js for the behaviour):
 * create, retrieve, results (JSONL at the batch's `results_url`) and cancel.
 */
import { ANTHROPIC_CUSTOM_ID, anthropicError, DAY_MS, iso, json, parseJson } from './fake-batch-json.js';

/** The routes, over the shared store (fake-llm-batches.js). */
export function anthropicBatchRoutes(store) {
  const { nextId, limits, newBatch, count, find, settle, urlOf } = store;

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

  function route(method, path) {
    if (method === 'POST' && path === '/v1/messages/batches')
      return { api: 'anthropic', handle: (raw) => createAnthropic(raw) };
    const m = /^\/v1\/messages\/batches\/([^/]+)(\/results|\/cancel)?$/.exec(path);
    if (m === null) return undefined;
    const [, id, tail] = m;
    return {
      api: 'anthropic',
      handle: async () => {
        const batch = find('anthropic', id);
        if (batch === undefined)
          return anthropicError(404, 'not_found_error', `message batch ${id} not found`);
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

  return route;
}
