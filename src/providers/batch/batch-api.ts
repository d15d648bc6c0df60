/**
 * What one provider's batch API does for a run (docs/design/cost-engine.md), behind one interface
 * so the runner that journals and waits never sees a wire format: submit a list of request bodies
 * under their cache keys, ask whether a batch has ended, read what each request got.
 */
import type { ModelEntry } from '../../experiment/schema.js';
import type { ProviderName } from '../registry.js';
import type { CompletionRequest, CompletionResult } from '../types.js';

/** One call of a batch: its cache key (the `custom_id`) and the body the interactive call would send. */
export interface BatchLine {
  customId: string;
  body: Record<string, unknown>;
}

/** How a request of an ended batch came out; only `succeeded` enters the cache. */
export type BatchEntryOutcome =
  | { kind: 'succeeded'; result: Omit<CompletionResult, 'costUsd' | 'latencyMs'> }
  | { kind: 'errored' | 'expired' | 'canceled'; message?: string };

export type BatchStatus = { ended: false } | { ended: true };

/** The provider's limits for one batch: requests and bytes of the submitted body or file. */
export interface BatchLimits {
  requests: number;
  bytes: number;
}

export interface BatchApi {
  readonly provider: ProviderName;
  readonly limits: BatchLimits;
  /** The bytes one line adds to a submission (for splitting at `limits.bytes`). */
  lineBytes(line: BatchLine): number;
  /** Creates one batch of these lines (within the limits); returns its id. */
  submit(lines: readonly BatchLine[], signal: AbortSignal): Promise<string>;
  status(batchId: string, signal: AbortSignal): Promise<BatchStatus>;
  /** Every request's outcome, by custom_id; a request the results leave out is absent. */
  results(batchId: string, signal: AbortSignal): Promise<Map<string, BatchEntryOutcome>>;
}

/** A provider's batch support, loaded through its registry row (registry.ts `batch`). */
export interface BatchSupport {
  /** The provider's own limits for one batch. */
  readonly limits: BatchLimits;
  /** The entry's batch API, or why its endpoint has none (its calls are then made one by one). */
  open(
    entry: ModelEntry,
    env: NodeJS.ProcessEnv,
    limits: BatchLimits,
    signal: AbortSignal,
  ): Promise<BatchApi | { none: string }>;
  /** A call's body, as the interactive call would post it. */
  body(entry: ModelEntry, request: CompletionRequest): Record<string, unknown>;
}
