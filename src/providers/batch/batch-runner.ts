/**
 * Calls answered through the providers' batch APIs (docs/design/cost-engine.md): the runner takes
 * the calls an evaluation is about to make, leaves out those already in the cache, submits the rest
 * as batches (split at the provider's limits, `custom_id` = the cache key), journals each batch id
 * before waiting, polls with backoff, and puts every answer into the pool's cache. The
 * evaluation then runs as always and finds its answers there; a request that errored, expired
 * or was canceled is simply not in the cache, so its call is made interactively.
 *
 * A batch journaled by an earlier process and never finished (a crash, `stop`, Ctrl-C) is
 * polled before anything new is submitted — never submitted twice, never cancelled. A wait can
 * last hours, so `stop` and the `hours` budget cut it short (`cutoff`, asked at least every
 * second): the batch stays journaled and uncancelled for that resume to poll.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { roleModels } from '../../experiment/judge-panel.js';
import type { Role } from '../../experiment/roles.js';
import type { JudgeConfig, ModelEntry } from '../../experiment/schema.js';
import type { EventOf, Phase, RunEvent } from '../../run/events.js';
import { resolveBaseUrl } from '../env.js';
import type { BatchCache } from '../model-pool.js';
import { costOrNull, resolvePrice } from '../prices.js';
import { withRetries } from '../retry.js';
import { type CompletionRequest, ProviderError } from '../types.js';
import { type ProviderName, providerRecord } from '../registry.js';
import type { BatchApi, BatchEntryOutcome, BatchLimits, BatchLine, BatchSupport } from './batch-api.js';
import { splitBatch } from './split-batch.js';
import { BATCH_PRICE_FACTOR } from '../discounts.js';

export interface BatchCall {
  role: Role;
  /** A judge panel's member (docs/design/judge-reliability.md). */
  member?: number;
  request: CompletionRequest;
}

/** Where the calls belong, for the journal. */
export interface BatchWhere {
  iteration?: number;
  phase?: Phase;
}

/** The events' fields (the journal adds `type`, `v` and `at`). */
export type Submitted = Omit<EventOf<'batch_submitted'>, 'type' | 'v' | 'at'>;
export type Finished = Omit<EventOf<'batch_finished'>, 'type' | 'v' | 'at'>;

/** How the runner journals: each promise resolves once the event is durable. */
export interface BatchJournal {
  submitted(event: Submitted): Promise<void>;
  finished(event: Finished): Promise<void>;
  /** Said once per distinct message (the caller dedupes). */
  warn(message: string): void;
}

export interface BatchPolling {
  initialMs: number;
  maxMs: number;
  factor: number;
}

/**
 * Why waiting on batches ended before they did (docs/design/cost-engine.md: `stop`, the `hours`
 * budget); the run ends with `reason`, its pending batches journaled, never cancelled.
 */
export class BatchWaitCutOff extends Error {
  constructor(
    readonly reason: 'stop_requested' | 'hours',
    message: string,
  ) {
    super(message);
    this.name = 'BatchWaitCutOff';
  }
}

/** How often a wait asks `cutoff`, however long the polling interval has grown. */
const CUTOFF_CHECK_MS = 1_000;

/** Most batches end within the hour: look after 5 s, then less and less often, at most every minute. */
export const DEFAULT_BATCH_POLLING: BatchPolling = { initialMs: 5_000, maxMs: 60_000, factor: 1.5 };

/**
 * AUTORESEARCH_BATCH_POLL_MS="<ms>" polls at that fixed interval instead (tests, and a fake or
 * local server that answers at once); without it, the default backoff.
 */
export function batchPollingFromEnv(env: NodeJS.ProcessEnv): BatchPolling {
  const ms = Number(env['AUTORESEARCH_BATCH_POLL_MS']);
  return Number.isFinite(ms) && ms > 0 ? { initialMs: ms, maxMs: ms, factor: 1 } : DEFAULT_BATCH_POLLING;
}

export interface BatchRunnerOptions {
  cache: BatchCache;
  /** The run's model entries (role → entry), to find the endpoint of a journaled batch. */
  models: Partial<Record<Role, JudgeConfig>>;
  env: NodeJS.ProcessEnv;
  journal: BatchJournal;
  /** Batches an earlier process journaled and did not finish (pendingBatches of its journal). */
  pending?: readonly Submitted[];
  polling?: BatchPolling;
  /** Lower limits than the providers' (tests). */
  limits?: Partial<Record<ProviderName, BatchLimits>>;
  /** Asked before each submission and while waiting: a cut-off ends the wait by throwing it. */
  cutoff?: () => BatchWaitCutOff | undefined;
}

export interface BatchRunner {
  /** Answers these calls through batches into the cache; returns once every batch has ended. */
  run(calls: readonly BatchCall[], where: BatchWhere, signal: AbortSignal): Promise<void>;
}

/** The batches a journal submitted and never finished, oldest first. */
export function pendingBatches(events: readonly RunEvent[]): Submitted[] {
  const finished = new Set(events.flatMap((e) => (e.type === 'batch_finished' ? [e.batchId] : [])));
  return events.flatMap((e) => {
    if (e.type !== 'batch_submitted' || finished.has(e.batchId)) return [];
    const { v: _v, at: _at, type: _type, ...body } = e;
    return [body];
  });
}

interface Endpoint {
  entry: ModelEntry;
  api: BatchApi;
  body: BatchSupport['body'];
}

export function createBatchRunner(options: BatchRunnerOptions): BatchRunner {
  const polling = options.polling ?? DEFAULT_BATCH_POLLING;
  const endpoints = new Map<string, Promise<Endpoint | undefined>>();
  let pendingDone: Promise<void> | undefined;

  const checkCutoff = () => {
    const cut = options.cutoff?.();
    if (cut !== undefined) throw cut;
  };

  /** One polling interval, asking `cutoff` at least every CUTOFF_CHECK_MS. */
  async function pause(ms: number, signal: AbortSignal): Promise<void> {
    for (let left = ms; left > 0; left -= CUTOFF_CHECK_MS) {
      checkCutoff();
      await sleep(Math.min(left, CUTOFF_CHECK_MS), signal);
    }
    checkCutoff();
  }

  const endpointKey = (entry: ModelEntry) =>
    JSON.stringify([entry.provider, resolveBaseUrl(entry, options.env), entry.model, entry.api_key_env]);

  /** The batch API of an entry's endpoint, or undefined (said once) when it has none. */
  function endpointOf(entry: ModelEntry, signal: AbortSignal): Promise<Endpoint | undefined> {
    const key = endpointKey(entry);
    let found = endpoints.get(key);
    if (found === undefined) {
      found = openEndpoint(entry, signal);
      endpoints.set(key, found);
    }
    return found;
  }

  async function openEndpoint(entry: ModelEntry, signal: AbortSignal): Promise<Endpoint | undefined> {
    const where = `${entry.provider}${entry.model === undefined ? '' : ` (${entry.model})`}`;
    const support = await providerRecord(entry.provider).batch?.();
    if (support === undefined) {
      options.journal.warn(`--batch: ${where} has no batch API; its calls are made one by one`);
      return undefined;
    }
    const limits = options.limits?.[entry.provider] ?? support.limits;
    const api = await support.open(entry, options.env, limits, signal);
    if ('none' in api) {
      options.journal.warn(`--batch: ${api.none}; ${where} calls are made one by one`);
      return undefined;
    }
    return { entry, api, body: support.body };
  }

  /** Polls a batch until it ends, puts its answers into the cache and journals the counts. */
  async function settle(
    endpoint: Endpoint,
    batchId: string,
    keys: readonly string[] | null,
    signal: AbortSignal,
  ) {
    const { api, entry } = endpoint;
    let wait = polling.initialMs;
    let outcomes: Map<string, BatchEntryOutcome> | undefined;
    try {
      for (;;) {
        if ((await api.status(batchId, signal)).ended) break;
        await pause(wait, signal);
        wait = Math.min(polling.maxMs, wait * polling.factor);
      }
      outcomes = (await withRetries(() => api.results(batchId, signal), { signal })).value;
    } catch (error) {
      if (!(error instanceof ProviderError) || error.kind === 'aborted' || error.stopsRun) throw error;
      options.journal.warn(
        `batch ${batchId} could not be read (${error.message}); its calls are made one by one`,
      );
    }
    const counts = { succeeded: 0, failed: 0, expired: 0, canceled: 0 };
    const price = resolvePrice(entry);
    for (const [key, outcome] of outcomes ?? []) {
      if (outcome.kind === 'succeeded') {
        const cost = costOrNull(price, outcome.result.usage);
        await options.cache.fill(key, entry, {
          ...outcome.result,
          costUsd: cost === null ? null : cost * BATCH_PRICE_FACTOR,
          latencyMs: 0,
        });
        counts.succeeded += 1;
      } else if (outcome.kind === 'errored') counts.failed += 1;
      else counts[outcome.kind] += 1;
    }
    // Requests the results leave out (a batch that failed as a whole) are failures too.
    if (keys !== null) counts.failed += keys.filter((key) => !outcomes?.has(key)).length;
    await options.journal.finished({ batchId, ...counts });
  }

  /** Batches an earlier process left pending: polled to their end before anything new is sent. */
  async function drainPending(signal: AbortSignal): Promise<void> {
    const entries = roleModels(options.models).map((m) => m.entry);
    await Promise.all(
      (options.pending ?? []).map(async (batch) => {
        const entry = entries.find((e) => e.provider === batch.provider && (e.model ?? '') === batch.model);
        const endpoint = entry === undefined ? undefined : await endpointOf(entry, signal);
        if (endpoint === undefined) {
          options.journal.warn(
            `batch ${batch.batchId} (${batch.provider} ${batch.model}) has no model entry now; it is not polled`,
          );
          await options.journal.finished({
            batchId: batch.batchId,
            succeeded: 0,
            failed: batch.requests,
            expired: 0,
            canceled: 0,
          });
          return;
        }
        await settle(endpoint, batch.batchId, null, signal);
      }),
    );
  }

  async function submitGroup(
    endpoint: Endpoint,
    lines: BatchLine[],
    where: BatchWhere,
    signal: AbortSignal,
  ): Promise<void> {
    const { api, entry } = endpoint;
    const chunks = splitBatch(lines, api.limits, (line) => api.lineBytes(line));
    const submitted: { batchId: string; keys: string[] }[] = [];
    for (const chunk of chunks) {
      // Nothing new is sent once the wait for it would be cut at once.
      checkCutoff();
      let batchId: string;
      try {
        batchId = (await withRetries(() => api.submit(chunk, signal), { signal })).value;
      } catch (error) {
        if (!(error instanceof ProviderError) || error.kind === 'aborted' || error.stopsRun) throw error;
        options.journal.warn(
          `a batch of ${chunk.length} requests was refused (${error.message}); they are made one by one`,
        );
        continue;
      }
      // Journaled before any wait: from here a crash leaves it for resume to poll.
      await options.journal.submitted({
        batchId,
        provider: api.provider,
        model: entry.model ?? '',
        requests: chunk.length,
        ...where,
      });
      submitted.push({ batchId, keys: chunk.map((line) => line.customId) });
    }
    await Promise.all(submitted.map((b) => settle(endpoint, b.batchId, b.keys, signal)));
  }

  // Requests in a batch not yet ended, by cache key → the end of the `run` that sent them. Two
  // evaluations running side by side (pareto candidates retesting the same parent) can ask for
  // the same request: the second waits for the first's batch instead of paying for it again.
  const inFlight = new Map<string, Promise<void>>();

  return {
    async run(calls, where, signal) {
      pendingDone ??= drainPending(signal);
      await pendingDone;
      let ended = () => {};
      const mine = new Promise<void>((resolve) => {
        ended = resolve;
      });
      // Every key is claimed before the next await, so a run started meanwhile sees it.
      const claimed = new Map<string, BatchCall>();
      const others = new Set<Promise<void>>();
      for (const call of calls) {
        const key = options.cache.key(call.role, call.request, call.member);
        if (claimed.has(key)) continue;
        const flying = inFlight.get(key);
        if (flying === undefined) {
          inFlight.set(key, mine);
          claimed.set(key, call);
        } else others.add(flying);
      }
      try {
        const groups = new Map<string, { endpoint: Endpoint; lines: BatchLine[] }>();
        for (const [key, call] of claimed) {
          if (await options.cache.has(key)) continue;
          const entry = entryOf(options.models, call.role, call.member);
          const endpoint = await endpointOf(entry, signal);
          if (endpoint === undefined) continue;
          const body = endpoint.body(entry, call.request);
          const group = endpointKey(entry);
          const lines = groups.get(group)?.lines ?? [];
          lines.push({ customId: key, body });
          groups.set(group, { endpoint, lines });
        }
        await Promise.all([
          ...[...groups.values()].map((g) => submitGroup(g.endpoint, g.lines, where, signal)),
          ...others,
        ]);
      } finally {
        for (const key of claimed.keys()) if (inFlight.get(key) === mine) inFlight.delete(key);
        ended();
      }
    },
  };
}

function entryOf(
  models: Partial<Record<Role, JudgeConfig>>,
  role: Role,
  member: number | undefined,
): ModelEntry {
  const found = roleModels(models, [role]).find((m) => (m.member ?? undefined) === member);
  if (found === undefined)
    throw new Error(`no model entry for ${role}${member === undefined ? '' : `[${member}]`}`);
  return found.entry;
}

async function sleep(ms: number, signal: AbortSignal): Promise<void> {
  try {
    await delay(ms, undefined, { signal });
  } catch (error) {
    throw new ProviderError('aborted', 'aborted while waiting on a batch', { cause: error });
  }
}
