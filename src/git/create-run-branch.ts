/**
 * Starting a run's branch from the current HEAD (SPEC 9), without checking it out. When
 * the prompt the run starts from is not what HEAD holds, the branch opens with one
 * baseline commit (`Autoresearch-Iteration: 0`) so every later keep diffs against it.
 */
import { formatBaselineMessage, formatRunBranch } from './commit-message.js';
import { UnbornHeadError } from './git-errors.js';
import { commitFile, compareWithCommit } from './objects.js';
import type { GitRepo } from './open-repo.js';
import { assertValidBranchName, currentBranch, moveBranch, resolveCommit } from './refs.js';

export interface CreateRunBranchInput {
  repo: GitRepo;
  experiment: string;
  runId: string;
  /** The experiment's prompt file (absolute or relative to the process's cwd). */
  promptPath: string;
  /** The prompt the run starts from, as read from the working tree. */
  promptText: string;
}

export interface RunBranch {
  /** `autoresearch/<experiment>/<run-id>` (without `refs/heads/`). */
  branch: string;
  /** The commit HEAD pointed at when the run started. */
  base: string;
  /** The branch HEAD is on, or null when HEAD was detached. */
  baseBranch: string | null;
  /** Where the run branch points now: the baseline commit, or `base` when none was needed. */
  head: string;
  /** Present when the working-tree prompt differed from HEAD or was untracked. */
  baselineCommit?: string;
}

/** The baseline commit's sha, or undefined when HEAD already holds the run's starting prompt. */
async function commitBaselineIfNeeded(
  input: CreateRunBranchInput,
  base: string,
  relativePath: string,
): Promise<string | undefined> {
  const { repo, promptText: text } = input;
  const status = await compareWithCommit(repo, base, relativePath, text);
  if (status === 'same') return undefined;
  const message = formatBaselineMessage({ experiment: input.experiment, runId: input.runId, reason: status });
  return (await commitFile(repo, { parent: base, relativePath, text, message })).sha;
}

export async function createRunBranch(input: CreateRunBranchInput): Promise<RunBranch> {
  const { repo } = input;
  const branch = formatRunBranch(input.experiment, input.runId);
  await assertValidBranchName(repo, branch);
  const base = await resolveCommit(repo, 'HEAD');
  if (base === null) throw new UnbornHeadError(repo.root);
  const baseBranch = await currentBranch(repo);
  const relativePath = repo.relativePath(input.promptPath);
  const baselineCommit = await commitBaselineIfNeeded(input, base, relativePath);
  const head = baselineCommit ?? base;
  await moveBranch(repo, {
    branch,
    next: head,
    expected: null,
    reason: `autoresearch: start run ${input.runId}`,
  });
  return {
    branch,
    base,
    baseBranch,
    head,
    ...(baselineCommit === undefined ? {} : { baselineCommit }),
  };
}
