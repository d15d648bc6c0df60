/**
 * Everything a run needs around each model call, composed once per run: the adapter, the
 * endpoint's concurrency limit, our retries, the response cache and the cost ledger. Stages
 * and the judge proxy ask for `client(role)` and never see the layers. Aborting the pool's
 * signal (Ctrl-C) or calling close() aborts every call in flight; aborted calls are never
 * retried. With a budget, every priced call that reaches a provider first reserves its worst case
 * (spend-reservations.ts); a refused one is never started and the budget's `onRefused` hears of it.
 */
import { memberName, roleModels } from '../experiment/judge-panel.js';
import type { Role } from '../experiment/roles.js';
import type { JudgeConfig, ModelEntry } from '../experiment/schema.js';
import { computeCacheKey } from './cache-key.js';
import { type CachedCompletion, createFileCache, type ResponseCache, toCached } from './cache.js';
import { createProvider, type ProviderFactory } from './create-provider.js';
import { type CostLedger, createCostLedger } from './ledger.js';
import { BudgetReached } from './budget-reached.js';
import { createEndpointLimiter } from './limiter.js';
import { linkSignals } from './linked-signal.js';
import { DEFAULT_MAX_RETRIES, type RetryEvent, type RetryPolicy, withRetries } from './retry.js';
import { envForEntry } from './role-env.js';
import { type Hold, isRefusal, type SpendReservations } from './spend-reservations.js';
import {
  type CompletionRequest,
  type CompletionResult,
  type ModelClient,
  type Provider,
  ProviderError,
} from './types.js';
import { worstCaseUsd } from './worst-case-cost.js';

/** `budget.usd` as the pool enforces it: the reservations, and who stops the run on a refusal. */
export interface PoolBudget {
  reservations: SpendReservations;
  /** Called once per refused call, before it throws; the run session aborts the run with it. */
  onRefused(reached: BudgetReached): void;
}

export interface ModelPoolOptions {
  /** Role → entry, as ResolvedModels holds them; judge/grader program entries get no client. */
  models: Partial<Record<Role, JudgeConfig>>;
  /** The experiment's concurrency: the ceiling for every endpoint. */
  concurrency: number;
  /** Response cache folder (runs/<id>/cache); absent: no caching. */
  cacheDir?: string;
  env: NodeJS.ProcessEnv;
  /** Ctrl-C: aborts calls in flight. */
  signal?: AbortSignal;
  /** Backoff tuning and test hooks (sleep, random). */
  retry?: Omit<RetryPolicy, 'maxRetries'>;
  onRetry?: (role: Role, event: RetryEvent) => void;
  /** Where a `command` provider's relative argv paths resolve. */
  cwd?: string;
  /** A provider's notice that does not fail a call; each distinct one is told once per pool (run). */
  onWarning?: (message: string) => void;
  createProvider?: ProviderFactory;
  cache?: ResponseCache;
  ledger?: CostLedger;
  budget?: PoolBudget;
}

export interface ModelPool {
  /**
   * `member`: the place of a judge panel's member (docs/design/judge-reliability.md); its calls
   * count as the judge's.
   */
  client(role: Role, member?: number): ModelClient;
  /** Whether the role (or that panel member) has a model entry (not a judge/grader program). */
  has(role: Role, member?: number): boolean;
  readonly ledger: CostLedger;
  /**
   * The pool's response cache as batches use it (docs/design/cost-engine.md); absent when the run
   * has no cache.
   */
  readonly batchCache?: BatchCache;
  /**
   * A hold on `budget.usd` for a call the pool does not make itself (an agent's model call through
   * its pass-through proxy, docs/design/agent-runs.md): once the worst case fits, the same
   * reservations the pool's own calls take; undefined without a budget. A call that can never fit
   * is refused as the pool refuses its own (the run stops with reason `usd`): this rejects.
   */
  holdSpend(worstUsd: number): Promise<Hold | undefined>;
  /** Aborts calls in flight and waits for them to settle. */
  close(): Promise<void>;
}

/** What a batch needs of the pool's cache: the keys calls would have, and a way in for answers. */
export interface BatchCache {
  /** The content address a call of this role (or panel member) would have. */
  key(role: Role, request: CompletionRequest, member?: number): string;
  has(key: string): Promise<boolean>;
  /**
   * A batch's answer into the cache: the first call asking for it is then recorded as that
   * batch call (`batch: true`, its discounted cost on the caller's account), later ones as hits.
   */
  fill(key: string, entry: ModelEntry, result: CompletionResult): Promise<void>;
}

/** By memberName: `judge`, or `judge[1]` for a panel's second member. */
function modelEntries(models: Partial<Record<Role, JudgeConfig>>): Map<string, ModelEntry> {
  return new Map(roleModels(models).map((m) => [memberName(m.role, m.member), m.entry]));
}

/** A batch's answer, for the first call that asks for it: paid now, at the batch's price. */
function fromBatch(hit: CachedCompletion): CompletionResult {
  return { ...fromCache(hit), costUsd: hit.costUsd, cached: false, batch: true, attempts: 1 };
}

function fromCache(hit: CachedCompletion): CompletionResult {
  return {
    text: hit.text,
    ...(hit.toolCalls === undefined ? {} : { toolCalls: hit.toolCalls }),
    usage: { ...hit.usage },
    costUsd: 0,
    originalCostUsd: hit.costUsd,
    latencyMs: 0,
    cached: true,
    attempts: 0,
    ...(hit.stopReason === undefined ? {} : { stopReason: hit.stopReason }),
    ...(hit.simulated === undefined ? {} : { simulated: hit.simulated }),
  };
}

export function createModelPool(options: ModelPoolOptions): ModelPool {
  const entries = modelEntries(options.models);
  const { env } = options;
  const limiter = createEndpointLimiter([...entries.values()], options.concurrency, env);
  const cache =
    options.cache ?? (options.cacheDir === undefined ? undefined : createFileCache(options.cacheDir));
  const ledger = options.ledger ?? createCostLedger();
  const closing = new AbortController();
  const poolLink = linkSignals(options.signal, closing.signal);
  const poolSignal = poolLink.signal;
  const warned = new Set<string>();
  const onWarning = (message: string) => {
    if (warned.has(message)) return;
    warned.add(message);
    options.onWarning?.(message);
  };
  const factory: ProviderFactory =
    options.createProvider ??
    ((entry) =>
      createProvider(entry, {
        // Each adapter, and any program it runs, holds its own key only (role-env.ts).
        env: envForEntry(env, options.models, entry),
        onWarning,
        ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
      }));
  const providers = new Map<string, Promise<Provider>>();
  const inFlight = new Map<string, Promise<CompletionResult>>();
  const pending = new Set<Promise<unknown>>();
  const clients = new Map<string, ModelClient>();
  // Keys a batch filled and no call has taken yet (docs/design/cost-engine.md).
  const batched = new Set<string>();

  const providerFor = (name: string, entry: ModelEntry): Promise<Provider> => {
    let provider = providers.get(name);
    if (provider === undefined) {
      provider = Promise.resolve(factory(entry));
      providers.set(name, provider);
    }
    return provider;
  };

  const record = (role: Role, entry: ModelEntry, request: CompletionRequest, result: CompletionResult) =>
    ledger.record({
      role,
      provider: entry.provider,
      model: entry.model ?? entry.provider,
      ok: true,
      inputTokens: result.usage.inputTokens,
      outputTokens: result.usage.outputTokens,
      ...(result.usage.cacheWriteTokens === undefined
        ? {}
        : { cacheWriteTokens: result.usage.cacheWriteTokens }),
      ...(result.usage.cacheReadTokens === undefined
        ? {}
        : { cacheReadTokens: result.usage.cacheReadTokens }),
      costUsd: result.costUsd,
      ...(result.failedCostUsd === undefined ? {} : { failedCostUsd: result.failedCostUsd }),
      cached: result.cached === true,
      ...(result.cached === true ? { originalCostUsd: result.originalCostUsd ?? null } : {}),
      ...(result.batch === true ? { batch: true } : {}),
      attempts: result.attempts ?? 1,
      latencyMs: result.latencyMs,
      simulated: result.simulated === true,
      ...(request.account === undefined ? {} : { account: request.account }),
    });

  const recordFailure = (role: Role, entry: ModelEntry, request: CompletionRequest, error: unknown) =>
    ledger.record({
      role,
      provider: entry.provider,
      model: entry.model ?? entry.provider,
      ok: false,
      inputTokens: 0,
      outputTokens: 0,
      // A CLI reports what a failed call cost it; an HTTP API bills no failed call.
      costUsd: error instanceof ProviderError ? (error.costUsd ?? 0) : 0,
      cached: false,
      attempts: 0,
      latencyMs: 0,
      simulated: entry.provider === 'sim',
      ...(error instanceof ProviderError ? { errorKind: error.kind } : {}),
      ...(request.account === undefined ? {} : { account: request.account }),
    });

  async function callProvider(
    role: Role,
    name: string,
    entry: ModelEntry,
    request: CompletionRequest,
    signal: AbortSignal,
  ): Promise<CompletionResult> {
    const provider = await providerFor(name, entry);
    const { value, attempts, failedCostUsd } = await withRetries(
      () => limiter.run(entry, () => provider.complete({ ...request, signal })),
      {
        ...(options.retry ?? {}),
        maxRetries: entry.max_retries ?? DEFAULT_MAX_RETRIES,
        signal,
        onRetry: (event) => options.onRetry?.(role, event),
      },
    );
    // Billed failed attempts before it count with the call; an unpriced call stays unpriced and
    // carries them apart, so the ledger still counts what they cost.
    const failed = failedCostUsd ?? 0;
    return {
      ...value,
      ...(value.costUsd === null
        ? failed > 0
          ? { failedCostUsd: failed }
          : {}
        : { costUsd: value.costUsd + failed }),
      attempts,
      cached: false,
      ...(entry.provider === 'sim' ? { simulated: true } : {}),
    };
  }

  /** The call's hold on the budget, once it fits; undefined without a budget or a price. */
  function reserve(entry: ModelEntry, request: CompletionRequest): Promise<Hold | undefined> {
    const worst = options.budget === undefined ? null : worstCaseUsd(entry, request);
    return worst === null ? Promise.resolve(undefined) : holdSpend(worst, request.signal);
  }

  /** A hold of `worst` once it fits; refused (the run told, then a rejection) when it never will. */
  async function holdSpend(worst: number, signal?: AbortSignal): Promise<Hold | undefined> {
    const budget = options.budget;
    if (budget === undefined) return undefined;
    const outcome = await budget.reservations.reserve(worst);
    if (!isRefusal(outcome)) {
      // Aborted while it waited for room: it never starts, so it holds nothing.
      if (poolSignal.aborted || signal?.aborted === true) {
        outcome.settle(0);
        throw new ProviderError('aborted', 'call aborted');
      }
      return outcome;
    }
    const reached = new BudgetReached(outcome);
    budget.onRefused(reached);
    throw new ProviderError('aborted', reached.message, { cause: reached });
  }

  /** The call once its worst case fits the budget, its hold settled at what it really cost. */
  async function reserveAndCall(
    role: Role,
    name: string,
    entry: ModelEntry,
    request: CompletionRequest,
  ): Promise<CompletionResult> {
    const hold = await reserve(entry, request);
    const linked = request.signal === undefined ? undefined : linkSignals(poolSignal, request.signal);
    const call = callProvider(role, name, entry, request, linked?.signal ?? poolSignal);
    // Let go of the run's signals once the call has settled, however it ended.
    if (linked !== undefined) call.then(linked.dispose, linked.dispose);
    call.then(
      (result) => hold?.settle((result.costUsd ?? 0) + (result.failedCostUsd ?? 0)),
      (error: unknown) => hold?.settle(error instanceof ProviderError ? (error.costUsd ?? 0) : 0),
    );
    return call;
  }

  async function complete(
    role: Role,
    name: string,
    entry: ModelEntry,
    request: CompletionRequest,
  ): Promise<CompletionResult> {
    if (poolSignal.aborted || request.signal?.aborted === true) {
      throw new ProviderError('aborted', 'call aborted');
    }
    const key = cache === undefined ? undefined : computeCacheKey(entry, request, env);
    // A refresh neither reads the entry nor joins an identical call: both hold the unusable reply.
    if (key !== undefined && cache !== undefined && request.refresh !== true) {
      const hit = await cache.get(key);
      if (hit !== undefined && batched.delete(key)) return fromBatch(hit);
      if (hit !== undefined) return fromCache(hit);
      const shared = inFlight.get(key);
      // An identical call already running: wait for it instead of paying twice.
      if (shared !== undefined) return fromCache(toCached(entry.provider, entry.model ?? '', await shared));
    }
    const call = reserveAndCall(role, name, entry, request);
    if (key === undefined || cache === undefined) return call;
    // Registered before the reservation is awaited, so an identical call arriving meanwhile joins it.
    inFlight.set(key, call);
    try {
      const result = await call;
      await cache.put(key, toCached(entry.provider, entry.model ?? '', result));
      return result;
    } finally {
      inFlight.delete(key);
    }
  }

  function clientFor(role: Role, name: string): ModelClient {
    const entry = entries.get(name);
    if (entry === undefined) {
      throw new Error(`no model entry for "${name}" (absent, or a judge/grader program)`);
    }
    return {
      role,
      entry,
      simulated: entry.provider === 'sim',
      concurrency: limiter.limitOf(entry),
      async complete(request) {
        const run = complete(role, name, entry, request);
        pending.add(run);
        try {
          const result = await run;
          record(role, entry, request, result);
          return result;
        } catch (error) {
          recordFailure(role, entry, request, error);
          throw error;
        } finally {
          pending.delete(run);
        }
      },
    };
  }

  return {
    client(role, member) {
      const name = memberName(role, member);
      let client = clients.get(name);
      if (client === undefined) {
        client = clientFor(role, name);
        clients.set(name, client);
      }
      return client;
    },
    has: (role, member) => entries.has(memberName(role, member)),
    ledger,
    holdSpend: (worstUsd) => holdSpend(worstUsd),
    ...(cache === undefined
      ? {}
      : {
          batchCache: {
            key(role, request, member) {
              const name = memberName(role, member);
              const entry = entries.get(name);
              if (entry === undefined) throw new Error(`no model entry for "${name}"`);
              return computeCacheKey(entry, request, env);
            },
            has: async (key) => (await cache.get(key)) !== undefined,
            async fill(key, entry, result) {
              await cache.put(key, toCached(entry.provider, entry.model ?? '', result));
              batched.add(key);
            },
          } satisfies BatchCache,
        }),
    async close() {
      closing.abort();
      poolLink.dispose();
      await Promise.allSettled([...pending]);
    },
  };
}
