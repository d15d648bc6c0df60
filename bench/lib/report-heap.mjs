/**
 * Preloaded into a measured Node process (`node --expose-gc --import <this file> …`): on
 * SIGUSR2 it appends, as a JSON line to the file BENCH_HEAP_REPORT names, the sizes of V8's
 * young generation and old space and the resident set as they are, then the live heap: the
 * smallest of three readings 100 ms apart, each after a full collection. What survives a full
 * collection is what the process really holds; the resident set also counts the room V8 keeps
 * for garbage it has not yet collected.
 */
import { appendFileSync } from 'node:fs';
import { getHeapSpaceStatistics } from 'node:v8';

/** The room V8 holds for a heap space (committed, garbage included), in KiB. */
function spaceKib(name) {
  const space = getHeapSpaceStatistics().find((s) => s.space_name === name);
  return space === undefined ? Number.NaN : space.space_size / 1024;
}

const target = process.env['BENCH_HEAP_REPORT'];
// Samples per signal, this far apart: what is in flight at one instant (a response being
// parsed, a file being written) comes and goes; the smallest of them is what the process holds.
const SAMPLES = 3;
const APART_MS = 100;

function liveHeapKib() {
  globalThis.gc();
  return process.memoryUsage().heapUsed / 1024;
}

if (target && typeof globalThis.gc === 'function') {
  process.on('SIGUSR2', () => {
    // The spaces' sizes before any collection: what the process held when the peak was read.
    const youngKib = spaceKib('new_space');
    const oldKib = spaceKib('old_space');
    const rssKib = process.memoryUsage().rss / 1024;
    const samplesKib = [liveHeapKib()];
    let written = false;
    const write = () => {
      if (written) return;
      written = true;
      const heapUsedKib = Math.min(...samplesKib);
      appendFileSync(target, `${JSON.stringify({ heapUsedKib, samplesKib, rssKib, youngKib, oldKib })}\n`);
    };
    // A process that ends first reports the readings it has.
    process.once('exit', write);
    const next = () => {
      if (samplesKib.length < SAMPLES) samplesKib.push(liveHeapKib());
      if (samplesKib.length < SAMPLES) setTimeout(next, APART_MS).unref();
      else write();
    };
    setTimeout(next, APART_MS).unref();
  });
}
