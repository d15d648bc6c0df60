/**
 * The one place that spawns git. Every call gets a cleaned environment so nothing the
 * caller inherited (a hook's GIT_DIR or GIT_INDEX_FILE, GIT_AUTHOR_*) can redirect a
 * command at the user's index or checkout, and git never waits for a person to answer.
 */
import { execa } from 'execa';
import { GitCommandError, GitUnavailableError } from './git-errors.js';

export interface GitRunOptions {
  /** Text for git's stdin (e.g. `hash-object --stdin`); stdin is empty and closed when absent. */
  input?: string;
  /** Run against this index file instead of the repository's own (GIT_INDEX_FILE). */
  indexFile?: string;
  /** `-c key=value` settings for this call only. */
  config?: readonly string[];
  /** Exit codes that are answers, not failures (e.g. 1 from `config --get` for a missing key). */
  okExitCodes?: readonly number[];
}

export interface GitResult {
  exitCode: number;
  /** Raw stdout, final newline kept: a blob's bytes must come back unchanged. */
  stdout: string;
  stderr: string;
}

export type GitRunner = (args: readonly string[], options?: GitRunOptions) => Promise<GitResult>;

// Variables that only say where the user's own configuration lives: honoured.
const KEPT_GIT_VARIABLES = new Set([
  'GIT_CONFIG_NOSYSTEM',
  'GIT_CONFIG_GLOBAL',
  'GIT_CONFIG_SYSTEM',
  'GIT_CEILING_DIRECTORIES',
  'GIT_DISCOVERY_ACROSS_FILESYSTEM',
]);

/**
 * The environment git runs with: the given one minus every other GIT_* variable, with
 * English messages (openRepo tells "not a repository" from real failures by them) and
 * terminal prompts off (an overnight run has nobody to answer).
 */
export function cleanGitEnv(env: NodeJS.ProcessEnv, indexFile?: string): Record<string, string> {
  const clean: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (key.toUpperCase().startsWith('GIT_') && !KEPT_GIT_VARIABLES.has(key.toUpperCase())) continue;
    clean[key] = value;
  }
  clean['LC_ALL'] = 'C';
  clean['GIT_TERMINAL_PROMPT'] = '0';
  if (indexFile !== undefined) clean['GIT_INDEX_FILE'] = indexFile;
  return clean;
}

// Plumbing is fast; this only stops a filter or lock that never returns from hanging a run.
const GIT_TIMEOUT_MS = 120_000;

export function createGitRunner(cwd: string, env: NodeJS.ProcessEnv): GitRunner {
  return async (args, options = {}) => {
    const argv = [...(options.config ?? []).flatMap((setting) => ['-c', setting]), ...args];
    const result = await execa('git', argv, {
      cwd,
      env: cleanGitEnv(env, options.indexFile),
      extendEnv: false,
      reject: false,
      stripFinalNewline: false,
      timeout: GIT_TIMEOUT_MS,
      // An empty input still closes stdin, so nothing can wait on it.
      input: options.input ?? '',
    });
    if (result.exitCode === undefined) {
      if (result.code === 'ENOENT') throw new GitUnavailableError(result.cause);
      throw new GitCommandError(args, undefined, result.stderr || (result.message ?? ''));
    }
    const ok = options.okExitCodes ?? [0];
    if (!ok.includes(result.exitCode)) throw new GitCommandError(args, result.exitCode, result.stderr);
    return { exitCode: result.exitCode, stdout: result.stdout, stderr: result.stderr };
  };
}
