/**
 * The hint for a run folder without `manifest.json`: what the journal still says about the
 * run, so a deleted manifest of a finished run is not mistaken for a run that never started.
 */
import { readJournal } from './journal.js';
import { reduceRun } from './reducer.js';
import type { RunState } from './run-state.js';

const LOST =
  'manifest.json was deleted or lost; restore it from a backup (or a copy of the run folder) to use this run';

/** Pure: the hint for the run the journal folds to (undefined: no journal, or an empty one). */
export function hintFromJournal(state: RunState | undefined): string {
  if (state === undefined || state.start === null) {
    return 'the run folder is incomplete: the run probably crashed before it started';
  }
  const last = state.open?.iteration ?? state.iterations.at(-1)?.iteration;
  const at = last === undefined ? '' : ` at iteration ${last}`;
  if (state.journalStatus === 'finished') {
    return `the journal shows the run finished${at} (${state.stop?.message ?? state.stop?.reason}); ${LOST}`;
  }
  if (state.journalStatus === 'stopped') {
    return `the journal shows the run stopped${at} (${state.stop?.message ?? state.stop?.reason}); ${LOST}`;
  }
  return `the journal shows the run started and was last${at === '' ? ' at its baseline' : at} (running, or cut short); ${LOST}`;
}

/** The hint from the run folder's journal; a journal that cannot be read says nothing. */
export async function missingManifestHint(runDir: string): Promise<string> {
  const journal = await readJournal(runDir, { onInvalid: 'collect' }).catch(() => undefined);
  return hintFromJournal(journal === undefined ? undefined : reduceRun(journal.events));
}
