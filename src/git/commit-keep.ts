/**
 * One kept candidate becomes one commit on the run branch that changes only the prompt
 * file — with several optimised parts, only the files of the parts that changed. The branch
 * moves only if it still points at `expectedHead`.
 */
import { AutoresearchError } from '../errors.js';
import { BranchMovedError } from './git-errors.js';
import { commitFiles } from './objects.js';
import type { GitRepo } from './open-repo.js';
import { type PromptLocation, promptFiles } from './prompt-files.js';
import { branchHead, moveBranch } from './refs.js';

export interface CommitKeepInput extends PromptLocation {
  repo: GitRepo;
  /** The run branch, as returned by createRunBranch. */
  branch: string;
  /** Where the branch must point now (the previous keep, or the run's start). */
  expectedHead: string;
  /** Use formatKeepMessage. */
  message: string;
}

/** Returns the new commit's sha; throws BranchMovedError when the branch is not at `expectedHead`. */
export async function commitKeep(input: CommitKeepInput): Promise<string> {
  const { repo, branch, expectedHead } = input;
  const actual = await branchHead({ repo, branch });
  if (actual !== expectedHead) throw new BranchMovedError(branch, expectedHead, actual);
  const files = promptFiles(repo, input);
  const commit = await commitFiles(repo, { parent: expectedHead, files, message: input.message });
  if (commit.changed.length === 0) {
    throw new AutoresearchError(
      'E_GIT',
      `nothing to commit: ${files.map((f) => f.relativePath).join(', ')} at ${expectedHead} already holds this prompt`,
      {
        hint: 'a kept candidate must differ from the incumbent; this is a bug in the caller',
      },
    );
  }
  await moveBranch(repo, { branch, next: commit.sha, expected: expectedHead, reason: 'autoresearch: keep' });
  return commit.sha;
}
