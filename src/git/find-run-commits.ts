/**
 * The run's own commits on its branch, read back from their trailers. Resume uses this to
 * see a keep that was committed but not yet journaled, so it is never committed twice.
 */
import { AutoresearchError } from '../errors.js';
import type { GitRepo } from './open-repo.js';
import { branchHead } from './refs.js';
import { parseTrailerLog, TRAILER_LOG_FORMAT } from './trailers.js';

export interface RunCommit {
  sha: string;
  /** 0 for the baseline commit. */
  iteration: number;
  /** The `Autoresearch-Score` trailer; null on the baseline commit, which has none. */
  score: number | null;
  /** The `Autoresearch-Pool` trailer (a pareto run's keep: the member that became the best). */
  pool: string | null;
}

export interface FindRunCommitsInput {
  repo: GitRepo;
  branch: string;
  /** The run whose commits to collect; defaults to the branch name's last segment. */
  runId?: string;
}

const PAGE = 100;

/**
 * Walks the branch's first-parent history from its tip and stops at the first commit that
 * is not this run's (the base), so earlier runs merged into the base are not counted.
 * Oldest first. Throws when the branch does not exist.
 */
export async function findRunCommits(input: FindRunCommitsInput): Promise<RunCommit[]> {
  const { repo, branch } = input;
  const runId = input.runId ?? branch.slice(branch.lastIndexOf('/') + 1);
  const tip = await branchHead({ repo, branch });
  if (tip === null) {
    throw new AutoresearchError('E_GIT', `the run branch ${branch} does not exist`, {
      hint: 'it may have been deleted or renamed; `git reflog` can show where it pointed',
    });
  }
  const found: RunCommit[] = [];
  for (let skip = 0; ; skip += PAGE) {
    const log = await repo.git([
      'log',
      '--first-parent',
      `--format=${TRAILER_LOG_FORMAT}`,
      `--max-count=${PAGE}`,
      `--skip=${skip}`,
      tip,
      '--',
    ]);
    const page = parseTrailerLog(log.stdout);
    for (const { sha, trailers } of page) {
      if (trailers.runId !== runId || trailers.iteration === undefined) return found.reverse();
      found.push({
        sha,
        iteration: trailers.iteration,
        score: trailers.score ?? null,
        pool: trailers.pool ?? null,
      });
    }
    if (page.length < PAGE) return found.reverse();
  }
}
