/**
 * Where runs live (docs/design/project-layout.md): `--runs-dir`, else AUTORESEARCH_RUNS_DIR, else
 * `runs/` in the project root — the nearest folder upward holding `experiments/`, else the current
 * folder. Listing the runs in it is list-runs.ts (it reads manifests, which `show` never needs).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { isErrno } from './errno.js';
import { findProjectRoot as findRoot } from '../project.js';

/**
 * The project root (docs/design/project-layout.md), async for callers that await it; the lookup lives
 * in src/project.ts.
 */
export async function findProjectRoot(cwd: string): Promise<string> {
  return findRoot(cwd);
}

export interface RunsDirSources {
  /** The `--runs-dir` flag, if given. */
  flag?: string | undefined;
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  root: string;
}

/** Pure: relative flag and environment values are taken from the current folder. */
export function resolveRunsDir({ flag, env, cwd, root }: RunsDirSources): string {
  if (flag !== undefined && flag !== '') return resolve(cwd, flag);
  const fromEnv = env['AUTORESEARCH_RUNS_DIR'];
  if (fromEnv !== undefined && fromEnv !== '') return resolve(cwd, fromEnv);
  return join(root, 'runs');
}

/** Create the runs folder on first use, with a .gitignore so run records never land in the user's commits. */
export async function ensureRunsDir(runsDir: string): Promise<void> {
  await mkdir(runsDir, { recursive: true });
  await writeFile(join(runsDir, '.gitignore'), '*\n', { flag: 'wx' }).catch((error: unknown) => {
    if (!isErrno(error, 'EEXIST')) throw error;
  });
}
