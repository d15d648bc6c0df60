/**
 * One side of a comparison of two runs (compare-runs.ts), read from its run folder: the
 * overview, the best prompt with its evaluation (the final check's fresh one when the run got
 * that far, else the one the loop decided on) and the judge models its config named. Used by
 * `compare` and by `report --beside`.
 */
import { readFile } from 'node:fs/promises';
import { CandidateResult } from '../evaluate/candidate-result.js';
import { isRecord } from '../is-record.js';
import { finalPaths } from '../loop/final-evaluation.js';
import { loadIncumbent } from '../loop/incumbent.js';
import { isErrno } from '../run/errno.js';
import { readJournal } from '../run/journal.js';
import { readLockStatus } from '../run/lock.js';
import { readManifestOrNull } from '../run/manifest.js';
import { reduceRun } from '../run/reducer.js';
import { resolveRunRef } from '../run/run-ref.js';
import type { RunState } from '../run/run-state.js';
import type { RunSide } from './compare-runs.js';
import { buildOverview } from './overview.js';

/** Only what the comparison reads: evaluation.json written by any version holds these. */
const StoredScores = CandidateResult.pick({ evaluation: true, scores: true });

export async function readRunSide(runsDir: string, idOrPrefix: string): Promise<RunSide> {
  const { id, dir } = await resolveRunRef(runsDir, idOrPrefix);
  const [journal, lock, manifest] = await Promise.all([
    readJournal(dir, { onInvalid: 'collect' }),
    readLockStatus(dir),
    readManifestOrNull(dir),
  ]);
  const state = reduceRun(journal.events);
  const overview = buildOverview(state, { id, liveLock: lock.state === 'held' });
  const best = await readBest(dir, state);
  return {
    overview,
    evaluation: best?.evaluation ?? null,
    prompt: best?.prompt ?? null,
    judges: judgesOf(manifest?.config),
  };
}

/**
 * The best prompt and its evaluation: the final check's fresh one when the run got that far, else
 * the one the loop decided on (the incumbent, the baseline while nothing was kept).
 */
async function readBest(
  dir: string,
  state: RunState,
): Promise<{ evaluation: NonNullable<RunSide['evaluation']>; prompt: string } | null> {
  if (state.finalEvaluation) {
    // When the best is the baseline, the final check evaluated it once, as the baseline.
    for (const which of ['best', 'baseline'] as const) {
      const paths = finalPaths(dir, which);
      const text = await readFile(paths.evaluation, 'utf8').catch((error: unknown) => {
        if (isErrno(error, 'ENOENT')) return null;
        throw error;
      });
      if (text === null) continue;
      const stored = StoredScores.parse(JSON.parse(text));
      return {
        evaluation: {
          source: 'final',
          iteration: state.finalEvaluation.best.iteration,
          samples: stored.evaluation.samples,
          scores: stored.scores,
        },
        prompt: await readFile(paths.prompt, 'utf8'),
      };
    }
  }
  if (!state.incumbent || state.incumbent.train === null) return null;
  const incumbent = await loadIncumbent(dir, state);
  return {
    evaluation: {
      source: 'decided',
      iteration: incumbent.iteration,
      samples: incumbent.evaluation.samples,
      scores: incumbent.scores,
    },
    prompt: incumbent.prompt,
  };
}

/** `models.judge` as the manifest's config holds it: one entry, a program, or a panel's members. */
function judgesOf(config: Record<string, unknown> | undefined): string[] {
  const models = config?.models;
  // No judge entry: the generator's entry judges (docs/design/experiment-format.md).
  const judge = isRecord(models) ? (models.judge ?? models.generator) : undefined;
  const entries =
    isRecord(judge) && Array.isArray(judge.panel) ? judge.panel : judge === undefined ? [] : [judge];
  return entries.map((entry) => {
    if (!isRecord(entry)) return String(entry);
    if (Array.isArray(entry.command)) return entry.command.join(' ');
    return [entry.provider, entry.model].filter((part) => typeof part === 'string').join(':');
  });
}
