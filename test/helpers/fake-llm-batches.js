/**
 * The providers' batch APIs on the fake server (docs/design/cost-engine.md), as the official SDK
 * clients call them:
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
 * them for a test; `batch.unsupported` removes the routes (a compatible server without batches). Anthropic's `custom_id` must match ^[a-zA-Z0-9_-]{1,64}$; in both APIs it
 * must be unique within the batch.
 */
import { anthropicBatchRoutes } from './fake-anthropic-batches.js';
import { LIMITS } from './fake-batch-json.js';
import { openaiBatchRoutes } from './fake-openai-batches.js';

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

  const store = {
    nextId,
    limits,
    newBatch,
    count,
    find,
    settle,
    urlOf,
    files,
    batches: () => batches.values(),
  };
  const routes = [anthropicBatchRoutes(store), openaiBatchRoutes(store)];

  /** The handler for `method path`, with the API family it belongs to; undefined: not a batch route. */
  function route(method, path) {
    // A server without batch APIs (`batch.unsupported`): every batch route is unknown, a 404.
    if (settings().unsupported === true) return undefined;
    for (const routeOf of routes) {
      const found = routeOf(method, path);
      if (found !== undefined) return found;
    }
    return undefined;
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
