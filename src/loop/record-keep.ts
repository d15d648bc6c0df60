/**
 * A keep, made durable: best.md, then the commit on the run branch, then the `commit` event.
 * The keep itself is journaled first, so a crash between the two leaves a keep without a
 * commit event — resume finds the commit by its trailer or makes it, never twice.
 */
import { partPaths } from '../experiment/part-texts.js';
import { changedParts, commitKeep, findRunCommits, formatKeepMessage, promptFiles } from '../git/index.js';
import { writeBest } from '../run/records.js';
import type { Experiment } from '../experiment/types.js';
import type { LoopDeps } from './loop-deps.js';

/** What a keep reads of the loop's deps. */
export type KeepDeps = Pick<LoopDeps, 'recorder' | 'runDir' | 'runId' | 'git'> & {
  experiment: Pick<Experiment, 'name' | 'shape'>;
};

export interface KeepRecord {
  iteration: number;
  prompt: string;
  from: number;
  to: number;
  hypothesis: string;
  /**
   * A pareto run (docs/design/pareto-search.md): the pool member that became the best; the commit's
   * `Autoresearch-Pool` trailer.
   */
  member?: string;
}

export async function recordKeep(deps: KeepDeps, keep: KeepRecord): Promise<void> {
  const { recorder } = deps;
  await writeBest(deps.runDir, keep.prompt);
  if (deps.git) {
    await recorder.emit({ type: 'phase', iteration: keep.iteration, phase: 'committing' });
    const { repo } = deps.git;
    const expectedHead = recorder.state().expectedHead ?? '';
    const paths = partPaths(deps.experiment.shape);
    const location = {
      promptPath: deps.git.promptPath,
      promptText: keep.prompt,
      ...(paths ? { partPaths: paths } : {}),
    };
    // Several parts: the message names the changed ones (the same on a resume: from the same head).
    const parts = paths ? await changedParts(repo, expectedHead, promptFiles(repo, location)) : undefined;
    const sha = await commitKeep({
      repo,
      branch: deps.git.branch,
      expectedHead,
      ...location,
      message: formatKeepMessage({
        experiment: deps.experiment.name,
        runId: deps.runId,
        iteration: keep.iteration,
        from: keep.from,
        to: keep.to,
        hypothesis: keep.hypothesis,
        ...(parts ? { parts } : {}),
        ...(keep.member === undefined ? {} : { member: keep.member }),
      }),
    });
    await recorder.emit({ type: 'commit', iteration: keep.iteration, sha });
  }
}

/**
 * Resume's repair of the last keep: a commit made but not journaled is journaled; a keep
 * journaled but never committed is committed. Either way exactly one commit per keep.
 */
export async function reconcileLastKeep(
  deps: KeepDeps,
  prompt: string,
): Promise<'ok' | 'journaled' | 'committed'> {
  const state = deps.recorder.state();
  const incumbent = state.incumbent;
  await writeBest(deps.runDir, prompt);
  if (!deps.git || !incumbent || incumbent.commit || state.baseline?.iteration === incumbent.iteration)
    return 'ok';
  const record = state.iterations.find((it) => it.iteration === incumbent.iteration);
  if (record?.status !== 'keep') return 'ok';
  const commits = await findRunCommits({ repo: deps.git.repo, branch: deps.git.branch, runId: deps.runId });
  const made = commits.find((c) => c.iteration === incumbent.iteration);
  if (made) {
    await deps.recorder.emit({ type: 'commit', iteration: incumbent.iteration, sha: made.sha });
    return 'journaled';
  }
  await recordKeep(deps, {
    iteration: incumbent.iteration,
    prompt,
    from: record.incumbentBefore ?? 0,
    to: record.train ?? 0,
    hypothesis: record.hypothesis ?? '',
    // A pareto keep made its member the best: the same trailer as the lost commit would have had.
    ...(state.pool?.best ? { member: state.pool.best } : {}),
  });
  return 'committed';
}
