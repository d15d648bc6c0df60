/** Defaults shared by the adapters. */
import type { ModelEntry } from '../../experiment/schema.js';

export const DEFAULT_HTTP_TIMEOUT_S = 120;
/** CLI agents start slowly and think longer than a bare API call. */
export const DEFAULT_PROCESS_TIMEOUT_S = 300;
export const DEFAULT_ANTHROPIC_MAX_TOKENS = 1024;

export function timeoutMsOf(entry: ModelEntry, fallbackSeconds: number): number {
  return Math.round((entry.timeout_s ?? fallbackSeconds) * 1000);
}

export { isRecord } from '../../is-record.js';

export function countOf(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0;
}
