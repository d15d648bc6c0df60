/**
 * The git layer of a run (docs/design/git-layout.md). Everything is plumbing, run through
 * simple-git's `raw` (git-runner.ts): objects are hashed into the store, trees are built in a
 * throw-away index file, commits are made with `commit-tree` and only the run branch moves, by
 * compare-and-swap. The user's working tree, index, HEAD and checked-out branch are never written
 * (no checkout, worktree or stash).
 *
 *   openRepo(dir, { env? })                  → GitRepo | null   (null: not in a work tree, or no git:
 *                                                                 the run goes on with commits off)
 *     repo.root, repo.identity, repo.relativePath(file)
 *   createRunBranch({ repo, experiment, runId, promptPath, promptText, partPaths? })
 *                                            → { branch, base, baseBranch, head, baselineCommit? }
 *       Branch `autoresearch/<experiment>/<run-id>` from HEAD (detached HEAD works; baseBranch
 *       is then null). When promptText differs from HEAD's copy or HEAD has none, the branch
 *       starts with one baseline commit (Autoresearch-Iteration: 0). An unborn HEAD (no
 *       commits yet) is refused with UnbornHeadError; an existing branch with BranchMovedError.
 *   commitKeep({ repo, branch, expectedHead, promptPath, promptText, partPaths?, message }) → sha
 *       One commit changing only the prompt (with `partPaths`, several optimised parts: only
 *       the changed parts' files; changedParts names them); BranchMovedError when the branch
 *       is not at expectedHead. `message` comes from formatKeepMessage.
 *   formatKeepMessage({ experiment, runId, iteration, from, to, hypothesis, parts?, member? }) → string (pure)
 *       `member` (a pareto run, docs/design/pareto-search.md): the `Autoresearch-Pool: p<n>` trailer.
 *   findRunCommits({ repo, branch, runId? }) → [{ sha, iteration, score, pool }] oldest first
 *   syncPoolRefs(deps, state) → member ids created        (pool-refs.ts, docs/design/pareto-search.md)
 *       Each journaled pool member without one gets refs/autoresearch/<experiment>/<run-id>/pool/p<n>:
 *       a commit of the run's start tree with the member's prompt file(s), parents = its parent
 *       members' commits (p0: the run start). Idempotent; a ref pointing elsewhere is E_GIT.
 *   listPoolRefs(repo, experiment, runId) / deletePoolRefs(repo, experiment, runId) → refs / count
 *   branchHead({ repo, branch })             → sha | null
 *   readWorkingPrompt(path), checkPromptDrift(path, startSha256), writePromptAtomically(path, text)
 *
 * Identity: the user's user.name/user.email (repo, global, system config), each falling
 * back to `autoresearch <autoresearch@localhost>`. Commits are never GPG-signed: an
 * unattended run cannot answer a passphrase prompt. All failures are E_GIT errors.
 */
export {
  collapseToParagraph,
  formatBaselineMessage,
  formatKeepMessage,
  formatPoolMessage,
  formatRunBranch,
  formatScore,
  type KeepMessageInput,
  TRAILER,
} from './commit-message.js';
export { type CommitKeepInput, commitKeep } from './commit-keep.js';
export { type CreateRunBranchInput, createRunBranch, type RunBranch } from './create-run-branch.js';
export { type FindRunCommitsInput, findRunCommits, type RunCommit } from './find-run-commits.js';
export { BranchMovedError, GitCommandError, GitUnavailableError, UnbornHeadError } from './git-errors.js';
export { type CommitIdentity, FALLBACK_IDENTITY } from './identity.js';
export { type GitRepo, type OpenRepoOptions, openRepo } from './open-repo.js';
export {
  checkPromptDrift,
  classifyPromptDrift,
  type PromptDrift,
  readWorkingPrompt,
  writePromptAtomically,
} from './prompt-file.js';
export { changedParts, type PromptFile, type PromptLocation, promptFiles } from './prompt-files.js';
export {
  deletePoolRefs,
  listPoolRefs,
  type PoolRef,
  type PoolRefsDeps,
  type PoolRefsState,
  poolRef,
  poolRefPrefix,
  syncPoolRefs,
} from './pool-refs.js';
export { branchHead } from './refs.js';
