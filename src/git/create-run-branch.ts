/**
 * Starting a run's branch from the current HEAD (docs/design/git-layout.md), without checking it
 * out. When the prompt the run starts from is not what HEAD holds, the branch opens with one
 * baseline commit (`Autoresearch-Iteration: 0`) so every later keep diffs against it.
 */
import { formatBaselineMessage, formatRunBranch } from './commit-message.js';
import { UnbornHeadError } from './git-errors.js';
import { commitFiles, compareWithCommit } from './objects.js';
import type { GitRepo } from './open-repo.js';
import { type PromptLocation, promptFiles } from './prompt-files.js';
import { assertValidBranchName, currentBranch, moveBranch, resolveCommit } from './refs.js';

/** `promptText`: the prompt the run starts from, as read from the working tree. */
export interface CreateRunBranchInput extends PromptLocation {
  repo: GitRepo;
  experiment: string;
  runId: string;
  /** `run --from`: where promptText came from, for the baseline commit's message. */
  startsFrom?: string;
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

/**
 * The baseline commit's sha, or undefined when HEAD already holds the run's starting prompt.
 * It holds every prompt file that differs from HEAD; the reason is `untracked` only when none
 * of them is in HEAD.
 */
async function commitBaselineIfNeeded(
  input: CreateRunBranchInput,
  base: string,
): Promise<string | undefined> {
  const { repo } = input;
  const files = promptFiles(repo, input);
  const statuses = await Promise.all(
    files.map((file) => compareWithCommit(repo, base, file.relativePath, file.text)),
  );
  if (statuses.every((status) => status === 'same')) return undefined;
  const reason = statuses.every((status) => status === 'untracked') ? 'untracked' : 'modified';
  const message = formatBaselineMessage({
    experiment: input.experiment,
    runId: input.runId,
    reason,
    ...(input.startsFrom === undefined ? {} : { startsFrom: input.startsFrom }),
  });
  return (await commitFiles(repo, { parent: base, files, message })).sha;
}

export async function createRunBranch(input: CreateRunBranchInput): Promise<RunBranch> {
  const { repo } = input;
  const branch = formatRunBranch(input.experiment, input.runId);
  await assertValidBranchName(repo, branch);
  const base = await resolveCommit(repo, 'HEAD');
  if (base === null) throw new UnbornHeadError(repo.root);
  const baseBranch = await currentBranch(repo);
  const baselineCommit = await commitBaselineIfNeeded(input, base);
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
