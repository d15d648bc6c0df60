/**
 * Reading the run's trailers back out of `git log`. git itself finds the trailer block
 * (`%(trailers:only,unfold)`); this only splits it into fields. Pure.
 */
import { TRAILER } from './commit-message.js';

/** The `git log --format` that {@link parseTrailerLog} reads: sha, unit separator, trailers, record separator. */
export const TRAILER_LOG_FORMAT = '%H%x1f%(trailers:only,unfold)%x1e';

export interface RunTrailers {
  runId: string | undefined;
  iteration: number | undefined;
  score: number | undefined;
  /**
   * `Autoresearch-Pool` (docs/design/pareto-search.md): the pool member, on a pareto run's keep and
   * pool commits.
   */
  pool: string | undefined;
}

export interface LoggedCommit {
  sha: string;
  trailers: RunTrailers;
}

function parseNumber(value: string | undefined, pattern: RegExp): number | undefined {
  return value !== undefined && pattern.test(value) ? Number(value) : undefined;
}

/** Trailer keys compare case-insensitively, as git does; the last occurrence wins. */
export function parseRunTrailers(block: string): RunTrailers {
  const values = new Map<string, string>();
  for (const line of block.split('\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    values.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  const runId = values.get(TRAILER.run.toLowerCase());
  const pool = values.get(TRAILER.pool.toLowerCase());
  return {
    runId: runId === '' ? undefined : runId,
    iteration: parseNumber(values.get(TRAILER.iteration.toLowerCase()), /^\d+$/),
    score: parseNumber(values.get(TRAILER.score.toLowerCase()), /^-?\d+(\.\d+)?$/),
    pool: pool !== undefined && /^p(0|[1-9]\d*)$/.test(pool) ? pool : undefined,
  };
}

export function parseTrailerLog(stdout: string): LoggedCommit[] {
  const commits: LoggedCommit[] = [];
  for (const record of stdout.split('\x1e')) {
    const [sha, block] = record.replace(/^\n+/, '').split('\x1f');
    if (sha === undefined || sha === '' || block === undefined) continue;
    commits.push({ sha, trailers: parseRunTrailers(block) });
  }
  return commits;
}
