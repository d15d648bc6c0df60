/**
 * Where the built CLI lives (`dist/cli/main.js` in the package root), so the runner can start
 * the built-in judge and grader with the same Node binary — from dist/ in use, and from src/
 * under vitest (after `npm run build`).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function isPackageRoot(dir: string): boolean {
  const manifest = join(dir, 'package.json');
  if (!existsSync(manifest)) return false;
  try {
    return (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === 'autoresearch';
  } catch {
    return false;
  }
}

export function findPackageRoot(from: string = dirname(fileURLToPath(import.meta.url))): string {
  let dir = from;
  for (;;) {
    if (isPackageRoot(dir)) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`cannot find the autoresearch package root above ${from}`);
    dir = parent;
  }
}

export function resolveCliEntry(): string {
  return join(findPackageRoot(), 'dist', 'cli', 'main.js');
}
