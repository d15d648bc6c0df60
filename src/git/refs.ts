/**
 * Reading and moving refs. The run branch only ever moves by compare-and-swap
 * (`update-ref --stdin` with the expected old value), so a keep can never land on top of
 * a branch that changed under the run, and HEAD and the user's branches are never written.
 */
import { AutoresearchError } from '../errors.js';
import { BranchMovedError, GitCommandError } from './git-errors.js';
import type { GitRepo } from './open-repo.js';

/** The commit a revision names, or null when it names none (e.g. an unborn HEAD). */
export async function resolveCommit(repo: GitRepo, revision: string): Promise<string | null> {
  const result = await repo.git(
    ['rev-parse', '--verify', '--quiet', '--end-of-options', `${revision}^{commit}`],
    {
      okExitCodes: [0, 1, 128],
    },
  );
  return result.exitCode === 0 ? result.stdout.trim() : null;
}

/** The commit a local branch points at, or null when there is no such branch. */
export async function branchHead({
  repo,
  branch,
}: {
  repo: GitRepo;
  branch: string;
}): Promise<string | null> {
  return resolveCommit(repo, `refs/heads/${branch}`);
}

/** The branch HEAD is on (`main`), or null when HEAD is detached. */
export async function currentBranch(repo: GitRepo): Promise<string | null> {
  const result = await repo.git(['symbolic-ref', '--quiet', 'HEAD'], { okExitCodes: [0, 1] });
  const ref = result.stdout.trim();
  return result.exitCode === 0 && ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : null;
}

export async function assertValidBranchName(repo: GitRepo, branch: string): Promise<void> {
  const result = await repo.git(['check-ref-format', `refs/heads/${branch}`], { okExitCodes: [0, 1] });
  if (result.exitCode !== 0) {
    throw new AutoresearchError('E_USAGE', `"${branch}" is not a valid git branch name`, {
      hint: 'experiment names and run ids may use lowercase letters, digits and dashes',
    });
  }
}

/**
 * Point `branch` at `next` if it currently points at `expected`; `expected: null` creates
 * the branch and requires that it does not exist yet.
 */
export async function moveBranch(
  repo: GitRepo,
  options: { branch: string; next: string; expected: string | null; reason: string },
): Promise<void> {
  const ref = `refs/heads/${options.branch}`;
  const command =
    options.expected === null
      ? `create ${ref} ${options.next}\n`
      : `update ${ref} ${options.next} ${options.expected}\n`;
  try {
    await repo.git(['update-ref', '-m', options.reason, '--stdin'], { input: command });
  } catch (error) {
    if (!(error instanceof GitCommandError)) throw error;
    const actual = await branchHead({ repo, branch: options.branch });
    if (actual !== options.expected) throw new BranchMovedError(options.branch, options.expected, actual);
    throw error;
  }
}

/**
 * Create `ref` at `sha`; it must not exist yet (`update-ref` refuses otherwise, and nothing is
 * written). For refs outside refs/heads/ (the pool refs): HEAD and branches are never named.
 */
export async function createRef(
  repo: GitRepo,
  options: { ref: string; sha: string; reason: string },
): Promise<void> {
  await repo.git(['update-ref', '-m', options.reason, '--stdin'], {
    input: `create ${options.ref} ${options.sha}\n`,
  });
}

/**
 * Delete every ref given, each only if it still points where it was read: one transaction,
 * so either all go or none does.
 */
export async function deleteRefs(
  repo: GitRepo,
  refs: readonly { ref: string; sha: string }[],
): Promise<void> {
  if (refs.length === 0) return;
  await repo.git(['update-ref', '--stdin'], {
    input: refs.map(({ ref, sha }) => `delete ${ref} ${sha}\n`).join(''),
  });
}
