/**
 * Matching the fake LLM server's request log with a run's response cache, to prove that a
 * resumed run never asks again for a call that had already completed.
 *
 * The HTTP body does not carry the sample index (part of the cache key), so two distinct
 * calls can send identical bodies. A call is therefore identified by its answer — model,
 * text and token counts, as the cache file stores them — and counted as a multiset: a
 * process may make a call with answer `s` only as often as the uninterrupted run made calls
 * with answer `s`, minus the ones whose answers were already in the cache when it started.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readCachedCompletion } from '../../../src/providers/cache.js';
import type { FakeLlmServer, Respond } from '../../helpers/fake-llm-server.js';

export type Tally = Map<string, number>;

export function answerKey(model: string, text: string, inputTokens: number, outputTokens: number): string {
  return JSON.stringify([model, text, inputTokens, outputTokens]);
}

export function addTo(tally: Tally, key: string, by = 1): void {
  tally.set(key, (tally.get(key) ?? 0) + by);
}

/** Wraps a `respond` handler so every reply's answer key is remembered by request index. */
export function recordingAnswers(respond: Respond): { respond: Respond; answers: Map<number, string> } {
  const answers = new Map<number, string>();
  return {
    answers,
    respond: async (req) => {
      const reply = await respond(req);
      const spec = typeof reply === 'string' ? { text: reply } : reply;
      const text = spec.text ?? '';
      answers.set(
        req.index,
        answerKey(req.model, text, spec.usage?.input_tokens ?? 0, spec.usage?.output_tokens ?? 0),
      );
      return reply;
    },
  };
}

/** The answers of the requests the server logged from `from` on (answered ones only). */
export function tallyRequests(server: FakeLlmServer, answers: Map<number, string>, from: number): Tally {
  const tally: Tally = new Map();
  for (const entry of server.log.slice(from)) {
    const key = answers.get(entry.index);
    if (key !== undefined) addTo(tally, key);
  }
  return tally;
}

/** The answers in a run's response cache. */
export async function tallyCache(runDir: string): Promise<Tally> {
  const tally: Tally = new Map();
  const dir = join(runDir, 'cache');
  let files: string[];
  try {
    files = (await readdir(dir, { recursive: true })).filter((f) => f.endsWith('.json'));
  } catch {
    return tally;
  }
  for (const file of files) {
    const cached = readCachedCompletion(JSON.parse(await readFile(join(dir, file), 'utf8')));
    // Every entry a finished run leaves must be whole.
    if (cached === undefined) throw new Error(`cache entry ${file} is not a whole entry`);
    addTo(tally, answerKey(cached.model, cached.text, cached.usage.inputTokens, cached.usage.outputTokens));
  }
  return tally;
}

/**
 * Answers requested by a process more often than the uninterrupted run needed them, given
 * what was cached when it started: each one is a completed call asked for again.
 */
export function repeatedCalls(reference: Tally, cachedBefore: Tally, requested: Tally): string[] {
  const repeats: string[] = [];
  for (const [key, count] of requested) {
    const allowed = (reference.get(key) ?? 0) - (cachedBefore.get(key) ?? 0);
    if (count > allowed) {
      const [model, text] = JSON.parse(key) as [string, string];
      repeats.push(
        `${count} request(s) (${allowed} allowed) to ${model} answered "${text.slice(0, 80).replace(/\n/g, ' ')}…"`,
      );
    }
  }
  return repeats;
}

/**
 * Waits until requests the killed process had already sent are in the log: a request of our
 * own to an unknown route is answered only after the server took every earlier connection.
 */
export async function settleServer(server: FakeLlmServer): Promise<void> {
  await fetch(`${server.url}/settle`).then((response) => response.arrayBuffer());
  for (let spins = 0; server.inFlight > 0 && spins < 1000; spins++) {
    await new Promise((resolve) => setImmediate(resolve));
  }
}
