/**
 * Where the built CLI lives (`dist/cli/main.js` in the package root), so the runner can start
 * the built-in judge and grader with the same Node binary — from dist/ in use, and from src/
 * under vitest (after `npm run build`).
 */
import { join } from 'node:path';
import { findPackageRoot } from '../package-root.js';

export function resolveCliEntry(): string {
  return join(findPackageRoot(), 'dist', 'cli', 'main.js');
}
