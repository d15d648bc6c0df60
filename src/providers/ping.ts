/**
 * `validate --ping`: one tiny call per configured model, no retries and no cache, reporting
 * the round-trip time or the exact failure (missing key, rejected key, unknown model, …).
 */
import { isProgramEntry } from '../experiment/program-entry.js';
import type { JudgeEntry, ModelEntry } from '../experiment/schema.js';
import { createProvider, type ProviderFactory } from './create-provider.js';
import { ProviderError } from './types.js';
import { monotonicMs } from './clock.js';

export interface PingResult {
  role: string;
  ok: boolean;
  latencyMs?: number;
  error?: string;
  simulated?: boolean;
}

export interface PingOptions {
  /** Per-call ceiling; the entry's own timeout_s applies when shorter. Default 30 s. */
  timeoutMs?: number;
  signal?: AbortSignal;
  cwd?: string;
  createProvider?: ProviderFactory;
  now?: () => number;
}

export const PING_PROMPT = 'Reply with the single word OK.';
const DEFAULT_PING_TIMEOUT_MS = 30_000;

function withTimeout(entry: ModelEntry, timeoutMs: number): ModelEntry {
  const seconds = timeoutMs / 1000;
  return { ...entry, timeout_s: Math.min(entry.timeout_s ?? seconds, seconds) };
}

async function pingOne(role: string, entry: ModelEntry, env: NodeJS.ProcessEnv, options: PingOptions) {
  const now = options.now ?? monotonicMs;
  const bounded = withTimeout(entry, options.timeoutMs ?? DEFAULT_PING_TIMEOUT_MS);
  const simulated = entry.provider === 'sim';
  try {
    const factory =
      options.createProvider ??
      ((e: ModelEntry) =>
        createProvider(e, { env, ...(options.cwd === undefined ? {} : { cwd: options.cwd }) }));
    const provider = await factory(bounded);
    const started = now();
    await provider.complete({
      messages: [{ role: 'user', content: PING_PROMPT }],
      temperature: 0,
      maxTokens: 16,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    return { role, ok: true, latencyMs: Math.round(now() - started), ...(simulated ? { simulated } : {}) };
  } catch (error) {
    const message =
      error instanceof ProviderError ? error.message : error instanceof Error ? error.message : String(error);
    return { role, ok: false, error: message, ...(simulated ? { simulated } : {}) };
  }
}

/** Pings every model entry in parallel; judge/grader programs are not models and are skipped. */
export async function pingModels(
  models: Partial<Record<string, JudgeEntry>>,
  env: NodeJS.ProcessEnv,
  options: PingOptions = {},
): Promise<PingResult[]> {
  const targets = Object.entries(models).filter(
    (pair): pair is [string, ModelEntry] => pair[1] !== undefined && !isProgramEntry(pair[1]),
  );
  return Promise.all(targets.map(([role, entry]) => pingOne(role, entry, env, options)));
}
