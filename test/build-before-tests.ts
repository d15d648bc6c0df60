/**
 * vitest's global setup: brings dist/ up to date before any test runs, so tests that start the
 * built CLI (and the runner's built-in judge and grader, which it starts as CLI commands) never
 * run a stale build, however vitest was started (`npm test`, `npx vitest run <file>`, an
 * editor). The build is incremental and serialized across processes (scripts/build.mjs).
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

// Each project inherits this setup from the root config; one build per vitest process is enough.
const BUILT = Symbol.for('autoresearch.test.dist-built');

export default function buildBeforeTests(): void {
  const state = globalThis as { [BUILT]?: boolean };
  if (state[BUILT]) return;
  const root = join(import.meta.dirname, '..');
  execFileSync(process.execPath, [join(root, 'scripts/build.mjs')], { cwd: root, stdio: 'inherit' });
  state[BUILT] = true;
}
