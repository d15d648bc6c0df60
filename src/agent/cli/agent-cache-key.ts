/**
 * The response-cache key of an agent's model call (docs/design/agent-runs.md, "Reproducible
 * requests"): the request body as the CLI sent it, less what changes from call to call without
 * changing what is asked — session and installation ids, the CLI's per-call metadata and item
 * ids, dates, times and UUIDs in any text (tool results carry `date`, `ls -l` and log
 * timestamps), and the host paths of the workspace and the sandbox (under `process` isolation
 * they differ per case) — plus the sample index and, for a request repeated within one run, its
 * occurrence. So a resumed case's requests, which repeat the first run's, find its answers.
 */
import { sha256Json } from '../../sha256.js';
import { isRecord } from '../../is-record.js';
import { SANDBOX_HOME } from '../../sandbox/bwrap-argv.js';
import { AGENT_WORKSPACE } from '../agent-run.js';

/** Top-level request fields that identify the session, not the question. */
export const VOLATILE_FIELDS: readonly string[] = ['metadata', 'prompt_cache_key', 'client_metadata'];

/** Fields left out wherever they appear: Codex's per-item bookkeeping and item ids. */
export const VOLATILE_ITEM_FIELDS: readonly string[] = ['internal_chat_message_metadata_passthrough', 'id'];

/** Text that changes with the clock or the session, each with what stands in for it. */
export const VOLATILE_TEXT: readonly (readonly [RegExp, string])[] = [
  // The proxy's one-time token (agent-proxy.ts), new for every case: an `env` shows it.
  [/\barp-[0-9a-f]{48}\b/g, '<token>'],
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<uuid>'],
  [/\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?/g, '<timestamp>'],
  [/\b\d{4}-\d{2}-\d{2}\b/g, '<date>'],
  // `date`'s own format: Thu Dec  3 09:44:08 UTC 2026.
  [
    /\b(Mon|Tue|Wed|Thu|Fri|Sat|Sun) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) +\d{1,2} \d{2}:\d{2}:\d{2}( [A-Z]{2,5})? \d{4}/g,
    '<timestamp>',
  ],
  // `ls -l`'s: Dec  3 09:44.
  [/\b(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) +\d{1,2} +(\d{2}:\d{2}|\d{4})\b/g, '<timestamp>'],
  [/\b\d{1,2}:\d{2}:\d{2}(\.\d+)?\b/g, '<time>'],
  // Codex's shell output header: a random chunk id, the command's own duration, and the size of
  // output whose volatile parts are left out here.
  [/\bChunk ID: [0-9a-f]+/g, 'Chunk ID: <id>'],
  [/\bWall time: [\d.]+ seconds/g, 'Wall time: <duration>'],
  [/\bOriginal token count: \d+/g, 'Original token count: <count>'],
  // Unix times in seconds or milliseconds (Codex's create_time, turn_started_at_unix_ms).
  [/\b1\d{9}(\d{3})?(\.\d+)?\b/g, '<unix-time>'],
];

export interface AgentKeyContext {
  /** Host folders to name neutrally: the workspace, and the sandbox's private folder. */
  hostPaths: { path: string; as: string }[];
  sampleIndex: number;
}

function neutralText(text: string, hostPaths: AgentKeyContext['hostPaths']): string {
  let out = text;
  // Longest first: the workspace may lie inside the sandbox's folder.
  for (const { path, as } of [...hostPaths].sort((a, b) => b.path.length - a.path.length)) {
    if (path !== '' && path !== '/') out = out.split(path).join(as);
  }
  for (const [pattern, stand] of VOLATILE_TEXT) out = out.replace(pattern, stand);
  return out;
}

function neutral(value: unknown, hostPaths: AgentKeyContext['hostPaths']): unknown {
  if (typeof value === 'string') return neutralText(value, hostPaths);
  if (Array.isArray(value)) return value.map((item) => neutral(item, hostPaths));
  if (!isRecord(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (VOLATILE_ITEM_FIELDS.includes(key)) continue;
    out[key] = neutral(item, hostPaths);
  }
  return out;
}

/** The request as the key sees it (exported for the tests and for `show`-style debugging). */
export function agentKeyMaterial(path: string, body: unknown, context: AgentKeyContext) {
  const top = isRecord(body)
    ? Object.fromEntries(Object.entries(body).filter(([key]) => !VOLATILE_FIELDS.includes(key)))
    : body;
  return {
    v: 1,
    kind: 'agent',
    path,
    body: neutral(top, context.hostPaths),
    sampleIndex: context.sampleIndex,
  };
}

/** The key of the `occurrence`-th identical request (0 first) of one case and sample. */
export function agentCacheKey(
  path: string,
  body: unknown,
  context: AgentKeyContext,
  occurrence: number,
): string {
  return sha256Json({ ...agentKeyMaterial(path, body, context), occurrence });
}

/** The host paths an agent's requests may name under `process` isolation, as `os` shows them. */
export function agentHostPaths(
  workspace: string,
  sandbox: { root: string; home: string },
): AgentKeyContext['hostPaths'] {
  return [
    { path: workspace, as: AGENT_WORKSPACE },
    { path: sandbox.home, as: SANDBOX_HOME },
    { path: sandbox.root, as: '<sandbox>' },
  ];
}
