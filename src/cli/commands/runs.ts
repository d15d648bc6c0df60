import type { Command } from 'commander';
import { findProjectRoot, listRuns, resolveRunsDir } from '../../run/runs-dir.js';
import { formatRunsJson, formatRunsTable } from '../../ui/format-runs.js';
import { terminal } from '../../ui/terminal.js';

interface RunsOptions {
  json?: boolean;
}

export default async function runsCommand(options: RunsOptions, command: Command): Promise<number> {
  const globals = command.optsWithGlobals<{ runsDir?: string }>();
  const cwd = process.cwd();
  const runsDir = resolveRunsDir({
    flag: globals.runsDir,
    env: process.env,
    cwd,
    root: await findProjectRoot(cwd),
  });
  const runs = await listRuns(runsDir);
  const term = terminal();
  term.out(
    options.json
      ? formatRunsJson(runs)
      : formatRunsTable(runs, { width: term.width, colors: term.colors, runsDir }),
  );
  return 0;
}
