/**
 * Content-addressed response cache in a folder (runs/<id>/cache/): one JSON file per finished
 * call, written atomically, so a crash never leaves half a file and a resumed run never pays
 * twice. Only successes are stored; the latency is not (a hit takes none).
 *
 * Entries are not fsynced: a killed process loses nothing (the data is in the OS's cache), and
 * what a power failure could lose or tear is read as a miss and asked again, never misread.
 * An fsync per model call would cost more than a fast call itself.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../atomic-file.js';
import { isRecord } from '../is-record.js';
import type { CompletionResult, ToolCall, Usage } from './types.js';

export interface CachedCompletion {
  v: 1;
  provider: string;
  model: string;
  text: string;
  /** The model's tool calls (docs/design/prompt-shapes.md); absent when it made none. */
  toolCalls?: ToolCall[];
  usage: Usage;
  costUsd: number | null;
  stopReason?: string;
  simulated?: boolean;
}

function isToolCall(value: unknown): value is ToolCall {
  return (
    isRecord(value) &&
    typeof value['id'] === 'string' &&
    typeof value['name'] === 'string' &&
    isRecord(value['arguments'])
  );
}

/** A cache file's content when it is a whole, current entry (checked by hand: no zod here). */
export function readCachedCompletion(entry: unknown): CachedCompletion | undefined {
  if (!isRecord(entry)) return undefined;
  const usage = entry['usage'];
  const valid =
    entry['v'] === 1 &&
    typeof entry['provider'] === 'string' &&
    typeof entry['model'] === 'string' &&
    typeof entry['text'] === 'string' &&
    (entry['toolCalls'] === undefined ||
      (Array.isArray(entry['toolCalls']) && entry['toolCalls'].every(isToolCall))) &&
    isRecord(usage) &&
    typeof usage['inputTokens'] === 'number' &&
    typeof usage['outputTokens'] === 'number' &&
    (entry['costUsd'] === null || typeof entry['costUsd'] === 'number') &&
    (entry['stopReason'] === undefined || typeof entry['stopReason'] === 'string') &&
    (entry['simulated'] === undefined || typeof entry['simulated'] === 'boolean');
  return valid ? (entry as unknown as CachedCompletion) : undefined;
}

export interface ResponseCache {
  get(key: string): Promise<CachedCompletion | undefined>;
  put(key: string, value: CachedCompletion): Promise<void>;
}

export function toCached(provider: string, model: string, result: CompletionResult): CachedCompletion {
  return {
    v: 1,
    provider,
    model,
    text: result.text,
    ...(result.toolCalls === undefined || result.toolCalls.length === 0
      ? {}
      : { toolCalls: result.toolCalls }),
    usage: { ...result.usage },
    costUsd: result.costUsd,
    ...(result.stopReason === undefined ? {} : { stopReason: result.stopReason }),
    ...(result.simulated === undefined ? {} : { simulated: result.simulated }),
  };
}

export function cacheFilePath(dir: string, key: string): string {
  return join(dir, key.slice(0, 2), `${key}.json`);
}

/**
 * The keys already in a cache folder, listed once: a run's pool is the only writer of its
 * cache (the run is locked), so a key not listed and not written since is a miss without
 * touching the disk. Undefined when the folder cannot be listed: then every lookup reads.
 */
async function listKeys(dir: string): Promise<Set<string> | undefined> {
  let shards: string[];
  try {
    shards = await readdir(dir);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? new Set() : undefined;
  }
  const keys = new Set<string>();
  try {
    for (const shard of shards) {
      for (const name of await readdir(join(dir, shard))) {
        if (name.endsWith('.json')) keys.add(name.slice(0, -'.json'.length));
      }
    }
  } catch {
    return undefined;
  }
  return keys;
}

export function createFileCache(dir: string): ResponseCache {
  // Every lookup of a stage starts at once; asking the disk about each missing entry kept the
  // first request of an evaluation waiting for all those reads.
  let known: Promise<Set<string> | undefined> | undefined;
  const knownKeys = () => {
    known ??= listKeys(dir);
    return known;
  };
  return {
    async get(key) {
      const keys = await knownKeys();
      if (keys !== undefined && !keys.has(key)) return undefined;
      let text: string;
      try {
        text = await readFile(cacheFilePath(dir, key), 'utf8');
      } catch {
        return undefined;
      }
      try {
        // A damaged entry is a miss; the fresh answer overwrites it.
        return readCachedCompletion(JSON.parse(text));
      } catch {
        return undefined;
      }
    },
    async put(key, value) {
      await writeFileAtomic(cacheFilePath(dir, key), `${JSON.stringify(value, null, 2)}\n`, {
        durable: false,
      });
      (await knownKeys())?.add(key);
    },
  };
}
