/**
 * Content-addressed response cache in a folder (runs/<id>/cache/): one JSON file per finished
 * call, written atomically, so a crash never leaves half a file and a resumed run never pays
 * twice. Only successes are stored; the latency is not (a hit takes none).
 */
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import * as z from 'zod';
import type { CompletionResult } from './types.js';

export const CachedCompletion = z.object({
  v: z.literal(1),
  provider: z.string(),
  model: z.string(),
  text: z.string(),
  usage: z.object({ inputTokens: z.number(), outputTokens: z.number() }),
  costUsd: z.number().nullable(),
  stopReason: z.string().optional(),
  simulated: z.boolean().optional(),
});
export type CachedCompletion = z.infer<typeof CachedCompletion>;

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
    usage: { inputTokens: result.usage.inputTokens, outputTokens: result.usage.outputTokens },
    costUsd: result.costUsd,
    ...(result.stopReason === undefined ? {} : { stopReason: result.stopReason }),
    ...(result.simulated === undefined ? {} : { simulated: result.simulated }),
  };
}

export function cacheFilePath(dir: string, key: string): string {
  return join(dir, key.slice(0, 2), `${key}.json`);
}

export function createFileCache(dir: string): ResponseCache {
  return {
    async get(key) {
      let text: string;
      try {
        text = await readFile(cacheFilePath(dir, key), 'utf8');
      } catch {
        return undefined;
      }
      try {
        const parsed = CachedCompletion.safeParse(JSON.parse(text));
        // A damaged entry is a miss; the fresh answer overwrites it.
        return parsed.success ? parsed.data : undefined;
      } catch {
        return undefined;
      }
    },
    async put(key, value) {
      const path = cacheFilePath(dir, key);
      await mkdir(join(dir, key.slice(0, 2)), { recursive: true });
      await writeFileAtomic(path, `${JSON.stringify(value, null, 2)}\n`);
    },
  };
}
