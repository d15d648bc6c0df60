import type { Command } from 'commander';
import { listRuns } from '../../run/list-runs.js';
import { formatRunsJson, formatRunsTable } from '../../ui/format-runs.js';
import { terminal } from '../../ui/terminal.js';
import { runsDirOf } from '../runs-dir-option.js';

interface RunsOptions {
  json?: boolean;
}

export default async function runsCommand(options: RunsOptions, command: Command): Promise<number> {
  const runsDir = runsDirOf(command);
  const runs = await listRuns(runsDir);
  const term = terminal();
  term.out(
    options.json
      ? formatRunsJson(runs)
      : formatRunsTable(runs, { width: term.width, colors: term.colors, runsDir }),
  );
  return 0;
}
