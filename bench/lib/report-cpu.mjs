/**
 * Preloaded into a measured Node process (`node --import <this file> …`): when the process
 * exits, writes its own CPU time and peak memory (not its children's) as JSON to the file
 * BENCH_CPU_REPORT names.
 */
import { writeFileSync } from 'node:fs';

const target = process.env['BENCH_CPU_REPORT'];
if (target) {
  process.on('exit', () => {
    const usage = process.resourceUsage();
    writeFileSync(
      target,
      JSON.stringify({
        userMs: usage.userCPUTime / 1000,
        systemMs: usage.systemCPUTime / 1000,
        maxRssKib: usage.maxRSS,
      }),
    );
  });
}
