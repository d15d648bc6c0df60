/**
 * Which run `resume` continues when it is given no id: the newest optimisation run of this runs
 * folder that stopped or crashed before its budget was spent. A finished run needs a larger
 * budget to go on, and a running one is busy, so neither is picked without being named.
 */
import { AutoresearchError } from '../errors.js';
import { listRuns } from './list-runs.js';
import type { RunSummary } from './run-summary.js';

export function pickResumable(runs: readonly RunSummary[]): RunSummary | undefined {
  // listRuns gives them newest first.
  return runs.find((run) => run.kind === 'run' && (run.status === 'stopped' || run.status === 'crashed'));
}

export async function newestResumableRun(runsDir: string): Promise<{ id: string; dir: string }> {
  const runs = await listRuns(runsDir);
  const picked = pickResumable(runs);
  if (picked !== undefined) return { id: picked.id, dir: picked.dir };
  const newest = runs.find((run) => run.kind === 'run');
  throw new AutoresearchError('E_USAGE', `no stopped or crashed run to resume in ${runsDir}`, {
    hint:
      newest === undefined
        ? 'start one with `autoresearch run <experiment>`'
        : `the newest run, ${newest.id}, is ${newest.status}; to give it more budget: autoresearch resume ${newest.id} --iterations +10`,
  });
}
