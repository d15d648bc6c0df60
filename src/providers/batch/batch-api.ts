/**
 * What one provider's batch API does for a run (docs/design/cost-engine.md), behind one interface
 * so the runner that journals and waits never sees a wire format: submit a list of request bodies
 * under their cache keys, ask whether a batch has ended, read what each request got.
 */
import type { CompletionResult } from '../types.js';

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
  readonly provider: 'anthropic' | 'openai';
  readonly limits: BatchLimits;
  /** The bytes one line adds to a submission (for splitting at `limits.bytes`). */
  lineBytes(line: BatchLine): number;
  /** Creates one batch of these lines (within the limits); returns its id. */
  submit(lines: readonly BatchLine[], signal: AbortSignal): Promise<string>;
  status(batchId: string, signal: AbortSignal): Promise<BatchStatus>;
  /** Every request's outcome, by custom_id; a request the results leave out is absent. */
  results(batchId: string, signal: AbortSignal): Promise<Map<string, BatchEntryOutcome>>;
}
