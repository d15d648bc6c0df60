/**
 * Where the built CLI lives (`dist/cli/main.js` in the package root), so the runner can start
 * the built-in judge and grader with the same Node binary — from dist/ in use, and from src/
 * under vitest (after `npm run build`).
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { findPackageRoot } from '../package-root.js';

export function resolveCliEntry(): string {
  return join(findPackageRoot(), 'dist', 'cli', 'main.js');
}

/**
 * What the runner starts its built-in judge and grader with: `builtin-main.js` beside the CLI's
 * entry (the same commands without the command tree, faster to start), or the CLI itself when
 * that build has none. Either takes the same arguments (`judge …`, `grade …`).
 */
export function resolveBuiltinEntry(cliEntry: string): string {
  const entry = join(dirname(cliEntry), 'builtin-main.js');
  return existsSync(entry) ? entry : cliEntry;
}
