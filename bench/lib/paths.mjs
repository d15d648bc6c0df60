/**
 * Where the benchmarks find things. They measure the built product: `dist/` (run `npm run
 * build` first), or the folder AUTORESEARCH_BENCH_DIST names (a private build, so a rebuild
 * by someone else cannot pull the files away mid-run).
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const REPO = fileURLToPath(new URL('../..', import.meta.url));
export const DIST = process.env['AUTORESEARCH_BENCH_DIST']
  ? resolve(process.env['AUTORESEARCH_BENCH_DIST'])
  : join(REPO, 'dist');
export const CLI = join(DIST, 'cli', 'main.js');
export const PEERS = join(REPO, 'bench', '.peers');
export const BENCHMARKS_MD = join(REPO, 'BENCHMARKS.md');

/** A module of the built product, for `await import(...)`. */
export function distModule(relative) {
  return pathToFileURL(join(DIST, relative)).href;
}

/** Stops with a clear message when the product is not built. */
export function requireBuilt() {
  if (existsSync(CLI)) return;
  console.error(`The product is not built (${CLI} is missing): run \`npm run build\` first.`);
  process.exit(2);
}

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** True when some file in src/ is newer than the build (the figures would describe old code). */
export function buildIsStale() {
  const src = join(REPO, 'src');
  if (!existsSync(src) || !existsSync(CLI)) return false;
  // The build is incremental: an unchanged output keeps its time, the build record is renewed.
  const record = join(dirname(dirname(CLI)), '.tsbuildinfo');
  return newestMtime(src) > statSync(existsSync(record) ? record : CLI).mtimeMs;
}
