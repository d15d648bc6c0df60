/**
 * Finding the repository a folder belongs to. `null` means "not inside a git work tree"
 * (or no git installed): the run then goes on with commits off and says so.
 */
import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { AutoresearchError } from '../errors.js';
import { GitCommandError, GitUnavailableError } from './git-errors.js';
import { type CommitIdentity, resolveIdentity } from './identity.js';
import { createGitRunner, type GitRunner } from './git-runner.js';

export interface GitRepo {
  /** Absolute, symlink-free path of the work tree's top folder. */
  readonly root: string;
  /** Who the run's commits are by, resolved once when the repository is opened. */
  readonly identity: CommitIdentity;
  /** Runs git in `root` with a cleaned environment. */
  readonly git: GitRunner;
  /** A file's path relative to `root`, with `/` separators; throws when it lies outside. */
  relativePath(file: string): string;
}

export interface OpenRepoOptions {
  /** The environment git sees (HOME for the global config, …); defaults to process.env. */
  env?: NodeJS.ProcessEnv;
}

// With LC_ALL=C these are the only ways git says "this folder is not in a work tree".
const NOT_A_WORK_TREE = /not a git repository|must be run in a work tree/i;

function existingDirectory(dir: string): string {
  const resolved = path.resolve(dir);
  let stats: ReturnType<typeof statSync> | undefined;
  try {
    stats = statSync(resolved);
  } catch {
    stats = undefined;
  }
  if (stats === undefined || !stats.isDirectory()) {
    throw new AutoresearchError('E_NOT_FOUND', `folder not found: ${resolved}`, {
      hint: 'pass the experiment folder (or any folder inside the repository)',
    });
  }
  return resolved;
}

/** Resolve symlinks of the folder holding `file` (the file itself may not exist yet). */
function realFilePath(file: string): string {
  const absolute = path.resolve(file);
  return path.join(realpathSync(path.dirname(absolute)), path.basename(absolute));
}

export function relativeToRoot(root: string, file: string): string {
  const relative = path.relative(root, realFilePath(file));
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) {
    throw new AutoresearchError('E_GIT', `${file} is not inside the git repository at ${root}`, {
      hint: 'keep the experiment\u2019s prompt file inside the repository the run commits to',
    });
  }
  return relative.split(path.sep).join('/');
}

export async function openRepo(dir: string, options: OpenRepoOptions = {}): Promise<GitRepo | null> {
  const cwd = existingDirectory(dir);
  const env = options.env ?? process.env;
  let toplevel: string;
  try {
    const result = await createGitRunner(cwd, env)(['rev-parse', '--show-toplevel']);
    toplevel = result.stdout.trim();
  } catch (error) {
    if (error instanceof GitUnavailableError) return null;
    if (error instanceof GitCommandError && NOT_A_WORK_TREE.test(error.stderr)) return null;
    throw error;
  }
  const root = realpathSync(path.resolve(toplevel));
  const git = createGitRunner(root, env);
  const identity = await resolveIdentity(git);
  return { root, identity, git, relativePath: (file) => relativeToRoot(root, file) };
}
