/**
 * The one place that runs git, through simple-git's `raw`. Each call gets its own
 * simple-git instance: stdin, `-c` settings and the private index are per call, and a
 * shared instance's `.env()` would leak between calls running at the same time.
 */
import { type SimpleGitOptions, simpleGit } from 'simple-git';
import type { AutoresearchError } from '../errors.js';
import { ALLOWED_GIT_VARIABLES, cleanGitEnv } from './git-env.js';
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

// Plumbing is fast; this only stops a filter or lock that never returns from hanging a run.
// simple-git counts it from the last output git wrote, then kills the process.
const GIT_SILENCE_LIMIT_MS = 120_000;

// simple-git writes stdin only when given something truthy: an empty string would leave it
// open, an empty buffer closes it, so nothing can wait on it.
const CLOSED_STDIN = Buffer.alloc(0);

const UNSAFE: SimpleGitOptions['unsafe'] = {
  // GIT_CONFIG_GLOBAL / GIT_CONFIG_SYSTEM are the user's own word on where their config
  // lives (kept by cleanGitEnv). simple-git files them with --git-dir, --work-tree and -C,
  // none of which any call here passes.
  allowUnsafeConfigPaths: true,
  // Otherwise simple-git exports GIT_TEST_DISALLOW_ABBREVIATED_OPTIONS=true, which reaches
  // the user's hooks and filters (update-ref runs reference-transaction, hash-object runs
  // clean filters) and breaks any of them that abbreviates an option. Our own arguments
  // are never abbreviated.
  allowAbbreviatedOptions: true,
};

interface Outcome {
  exitCode: number | null;
  stderr: string;
}

/** Turns a finished git process into a typed error, or null when its exit code is an answer. */
function classify(
  args: readonly string[],
  outcome: Outcome,
  ok: readonly number[],
  cause: unknown,
): AutoresearchError | null {
  // A negative code is the errno of a spawn that never started (-2: git not on PATH).
  if (outcome.exitCode !== null && outcome.exitCode < 0) return new GitUnavailableError(cause);
  if (outcome.exitCode === null) {
    // Killed (the timeout): there is no exit code, only what simple-git says happened.
    const message = cause instanceof Error ? cause.message : '';
    return new GitCommandError(args, undefined, outcome.stderr || message);
  }
  return ok.includes(outcome.exitCode) ? null : new GitCommandError(args, outcome.exitCode, outcome.stderr);
}

export function createGitRunner(cwd: string, env: NodeJS.ProcessEnv): GitRunner {
  return async (args, options = {}) => {
    const ok = options.okExitCodes ?? [0];
    let outcome: Outcome = { exitCode: null, stderr: '' };
    let failure: AutoresearchError | null = null;
    try {
      const git = simpleGit({
        baseDir: cwd,
        config: [...(options.config ?? [])],
        allowEnvironment: ALLOWED_GIT_VARIABLES,
        unsafe: UNSAFE,
        timeout: { block: GIT_SILENCE_LIMIT_MS },
        input: () => options.input ?? CLOSED_STDIN,
        // Called for every finished process, failed or not: the exit code decides, not stderr.
        // simple-git rethrows what this returns wrapped in its own error; the catch below
        // throws the typed original instead.
        errors: (error, result) => {
          const exitCode = typeof result.exitCode === 'number' ? result.exitCode : null;
          outcome = { exitCode, stderr: Buffer.concat(result.stdErr).toString('utf8') };
          failure = classify(args, outcome, ok, error);
          return failure ?? undefined;
        },
      }).env(cleanGitEnv(env, options.indexFile));
      const stdout = await git.raw([...args]);
      return { exitCode: outcome.exitCode ?? 0, stdout, stderr: outcome.stderr };
    } catch (error) {
      // No failure recorded: simple-git refused before starting git (one of its guards, or
      // the folder is gone).
      throw (
        failure ??
        new GitCommandError(args, undefined, error instanceof Error ? error.message : String(error))
      );
    }
  };
}
