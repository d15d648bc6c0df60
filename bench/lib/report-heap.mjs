/**
 * Preloaded into a measured Node process (`node --expose-gc --import <this file> …`): on
 * SIGUSR2 it collects garbage and appends the live heap and resident set, as a JSON line, to
 * the file BENCH_HEAP_REPORT names, with the sizes of V8's young generation and old space. What survives a full collection is what the process
 * really holds; the resident set also counts the room V8 keeps for garbage it has not yet
 * collected.
 */
import { appendFileSync } from 'node:fs';
import { getHeapSpaceStatistics } from 'node:v8';

/** The room V8 holds for a heap space (committed, garbage included), in KiB. */
function spaceKib(name) {
  const space = getHeapSpaceStatistics().find((s) => s.space_name === name);
  return space === undefined ? Number.NaN : space.space_size / 1024;
}

const target = process.env['BENCH_HEAP_REPORT'];
if (target && typeof globalThis.gc === 'function') {
  process.on('SIGUSR2', () => {
    // The spaces' sizes before the collection: what the process held when the peak was read.
    const youngKib = spaceKib('new_space');
    const oldKib = spaceKib('old_space');
    globalThis.gc();
    const { heapUsed, rss } = process.memoryUsage();
    appendFileSync(
      target,
      `${JSON.stringify({ heapUsedKib: heapUsed / 1024, rssKib: rss / 1024, youngKib, oldKib })}\n`,
    );
  });
}
