/**
 * The typed failures of the git layer, all `E_GIT` (exit 1). The loop matches on the
 * classes: a moved branch means someone else wrote to the run branch and the keep must
 * not be replayed on top of it blindly.
 */
import { AutoresearchError } from '../errors.js';

/** git could not be started at all (not installed, not on PATH). */
export class GitUnavailableError extends AutoresearchError {
  constructor(cause: unknown) {
    super('E_GIT', 'git could not be started', {
      hint: 'install git and make sure it is on PATH, or run outside a repository (commits are then off)',
      cause,
    });
    this.name = 'GitUnavailableError';
  }
}

/** A git command exited with a code the caller did not expect. */
export class GitCommandError extends AutoresearchError {
  readonly args: readonly string[];
  readonly gitExitCode: number | undefined;
  readonly stderr: string;

  constructor(args: readonly string[], exitCode: number | undefined, stderr: string) {
    const detail = stderr.trim().split('\n').slice(-3).join(' / ');
    const command = args.find((arg) => !arg.startsWith('-')) ?? '';
    super('E_GIT', `git ${command} failed (exit ${exitCode ?? 'unknown'}): ${detail || 'no message'}`, {
      hint: 'the user\u2019s checkout is untouched; check the repository with `git status` and `git fsck`',
    });
    this.name = 'GitCommandError';
    this.args = args;
    this.gitExitCode = exitCode;
    this.stderr = stderr;
  }
}

/** HEAD has no commit yet, so there is nothing to branch a run from. */
export class UnbornHeadError extends AutoresearchError {
  constructor(root: string) {
    super(
      'E_GIT',
      `the git repository at ${root} has no commits yet, so a run branch cannot start from HEAD`,
      {
        hint: 'make a first commit (e.g. `git commit --allow-empty -m init`), or run outside a repository with commits off',
      },
    );
    this.name = 'UnbornHeadError';
  }
}

/**
 * The run branch is not where the caller expected: it moved since the last keep, or
 * (expected `null`) it already exists. Nothing was written to the branch.
 */
export class BranchMovedError extends AutoresearchError {
  readonly branch: string;
  readonly expected: string | null;
  readonly actual: string | null;

  constructor(branch: string, expected: string | null, actual: string | null) {
    const message =
      expected === null
        ? `branch ${branch} already exists (at ${actual ?? 'unknown'})`
        : `branch ${branch} moved: expected ${expected}, found ${actual ?? 'no branch'}`;
    super('E_GIT', message, {
      hint: 'something other than this run wrote to the run branch; inspect it with `git log`, then resume or start a new run',
    });
    this.name = 'BranchMovedError';
    this.branch = branch;
    this.expected = expected;
    this.actual = actual;
  }
}
