/**
 * The runs folder a command works in: `--runs-dir`, else AUTORESEARCH_RUNS_DIR, else <project root>/runs
 * (docs/design/project-layout.md).
 */
import type { Command } from 'commander';
import { findProjectRoot } from '../project.js';
import { resolveRunsDir } from '../run/runs-dir.js';

export function runsDirOf(
  command: Command,
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
): string {
  const flag = command.optsWithGlobals<{ runsDir?: string }>().runsDir;
  return resolveRunsDir({ flag, env, cwd, root: findProjectRoot(cwd) });
}
