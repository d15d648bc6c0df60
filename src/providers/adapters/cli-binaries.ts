/**
 * Which binary the CLI providers run. Kept apart from the adapters so the endpoint limiter
 * can name a CLI endpoint without loading the process-running code (execa) into every
 * process — the judge's included, which only ever speaks HTTP.
 */
import type { ModelEntry } from '../../experiment/schema.js';

export function claudeBinary(entry: ModelEntry, env: NodeJS.ProcessEnv): string {
  return entry.binary ?? env['AUTORESEARCH_CLAUDE_BIN'] ?? 'claude';
}

export function codexBinary(entry: ModelEntry, env: NodeJS.ProcessEnv): string {
  return entry.binary ?? env['AUTORESEARCH_CODEX_BIN'] ?? 'codex';
}
