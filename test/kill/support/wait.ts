/**
 * Waiting for a background run to reach a state (an event in its journal, a lock file): the
 * condition is polled until it holds or the deadline passes. The deadline only bounds a hang;
 * correctness never depends on how long anything takes.
 */
import { readFile } from 'node:fs/promises';
import { parseJournal } from '../../../src/run/journal.js';
import type { RunEvent } from '../../../src/run/events.js';
import { runPaths } from '../../../src/run/paths.js';

export async function waitUntil<T>(
  probe: () => Promise<T | undefined>,
  what: string,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The journal's complete events so far (empty before the file exists). */
export async function journalEvents(runDir: string): Promise<RunEvent[]> {
  try {
    return parseJournal(await readFile(runPaths(runDir).events, 'utf8')).events;
  } catch {
    return [];
  }
}

export function waitForEvent(
  runDir: string,
  match: (event: RunEvent) => boolean,
  what: string,
  timeoutMs?: number,
): Promise<RunEvent> {
  return waitUntil(async () => (await journalEvents(runDir)).find(match), what, timeoutMs);
}
