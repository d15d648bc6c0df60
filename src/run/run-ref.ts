/**
 * What a command's run argument may be: a run id, its beginning (run-id.ts), or `latest` — the
 * newest optimisation run of the runs folder — and `latest~N`, the Nth before it. A run id starts
 * with its date, so neither word can be the beginning of one. Eval and calibrate records are
 * passed over: `show`, `diff`, `apply` and the rest read a loop's iterations.
 */
import { AutoresearchError } from '../errors.js';
import { listRuns } from './list-runs.js';
import { resolveRunId } from './run-id.js';
import type { RunSummary } from './run-summary.js';

const LATEST = /^latest(?:~(\d+))?$/;

/** `latest~N`'s N, or undefined when the argument is not a `latest` reference. */
export function parseLatest(ref: string): number | undefined {
  const match = LATEST.exec(ref.trim());
  if (match === null) return undefined;
  return Number(match[1] ?? 0);
}

/** The optimisation run `latest~back` names in a newest-first listing. */
export function pickLatest(runs: readonly RunSummary[], back: number): RunSummary | undefined {
  return runs.filter((run) => run.kind === 'run')[back];
}

export async function resolveRunRef(runsDir: string, ref: string): Promise<{ id: string; dir: string }> {
  const back = parseLatest(ref);
  if (back === undefined) return resolveRunId(runsDir, ref);
  const runs = await listRuns(runsDir);
  const picked = pickLatest(runs, back);
  if (picked !== undefined) return { id: picked.id, dir: picked.dir };
  const count = runs.filter((run) => run.kind === 'run').length;
  throw new AutoresearchError(
    'E_NOT_FOUND',
    count === 0
      ? `"${ref.trim()}" names no run: there are no runs in ${runsDir}`
      : `"${ref.trim()}" names no run: ${runsDir} holds ${count} run${count === 1 ? '' : 's'}`,
    {
      hint:
        count === 0
          ? 'start one with `autoresearch run <experiment>`, or pass --runs-dir if they live elsewhere'
          : `latest is the newest, latest~${count - 1} the oldest (all of them: autoresearch runs)`,
    },
  );
}
