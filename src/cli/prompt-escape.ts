/**
 * Where writing the working-tree prompt really lands. The prompt is written through a symlink
 * (the file it names is replaced), so a link that leaves the repository would have `apply`
 * overwrite a file elsewhere on the machine: that needs the user's explicit --force.
 */
import { realpath } from 'node:fs/promises';
import { isAbsolute, relative } from 'node:path';
import { openRepo } from '../git/index.js';

/** The real path of `file` when it lies outside `root`'s real path; undefined when inside (or missing). */
export async function realPathOutside(file: string, root: string): Promise<string | undefined> {
  const real = await realpath(file).catch(() => undefined);
  if (real === undefined) return undefined;
  const within = relative(await realpath(root).catch(() => root), real);
  return within === '' || within.startsWith('..') || isAbsolute(within) ? real : undefined;
}

/** The repository a project's prompt belongs to: its git work tree, else the project folder. */
export async function repositoryRootOf(projectRoot: string): Promise<string> {
  const repo = await openRepo(projectRoot).catch(() => null);
  return repo?.root ?? projectRoot;
}
