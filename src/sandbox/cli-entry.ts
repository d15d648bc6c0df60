/**
 * Where the built CLI lives (`dist/cli/main.js` in the package root), so the runner can start
 * the built-in judge and grader as its own commands (`autoresearch judge …`, `autoresearch
 * grade …`) with the same Node binary.
 */
import { join } from 'node:path';
import { findPackageRoot } from '../package-root.js';

export function resolveCliEntry(): string {
  return join(findPackageRoot(), 'dist', 'cli', 'main.js');
}
