/**
 * Preloaded into a measured Node process (`node --expose-gc --import <this file> …`): on
 * SIGUSR2 it collects garbage and appends the live heap and resident set, as a JSON line, to
 * the file BENCH_HEAP_REPORT names. What survives a full collection is what the process
 * really holds; the resident set also counts the room V8 keeps for garbage it has not yet
 * collected.
 */
import { appendFileSync } from 'node:fs';

const target = process.env['BENCH_HEAP_REPORT'];
if (target && typeof globalThis.gc === 'function') {
  process.on('SIGUSR2', () => {
    globalThis.gc();
    const { heapUsed, rss } = process.memoryUsage();
    appendFileSync(target, `${JSON.stringify({ heapUsedKib: heapUsed / 1024, rssKib: rss / 1024 })}\n`);
  });
}
