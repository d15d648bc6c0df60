import type { Command } from 'commander';
import { buildOverview } from '../../report/overview.js';
import { readJournal } from '../../run/journal.js';
import { readLockStatus } from '../../run/lock.js';
import { reduceRun } from '../../run/reducer.js';
import { resolveRunId } from '../../run/run-id.js';
import { formatShow, formatShowJson } from '../../ui/format-show.js';
import { terminal } from '../../ui/terminal.js';
import { runsDirOf } from '../runs-dir-option.js';

interface ShowOptions {
  json?: boolean;
}

export default async function showCommand(
  runId: string,
  options: ShowOptions,
  command: Command,
): Promise<number> {
  const runsDir = runsDirOf(command);
  const { id, dir } = await resolveRunId(runsDir, runId);
  const [journal, lock] = await Promise.all([
    readJournal(dir, { onInvalid: 'collect' }),
    readLockStatus(dir),
  ]);
  const state = reduceRun(journal.events);
  const overview = buildOverview(state, { id, liveLock: lock.state === 'held' });
  const term = terminal();
  for (const invalid of journal.invalidLines) {
    term.err(
      term.colors.yellow(`warning: events.jsonl line ${invalid.line} was skipped: ${invalid.message}`),
    );
  }
  term.out(
    options.json
      ? formatShowJson(overview, state.iterations)
      : formatShow(overview, state.iterations, { width: term.width, colors: term.colors }),
  );
  return 0;
}
