import type { Command } from 'commander';
import { compareRuns } from '../../report/compare-runs.js';
import { readRunSide } from '../../report/read-run-side.js';
import { formatCompare } from '../../ui/format-compare.js';
import { terminal } from '../../ui/terminal.js';
import { runsDirOf } from '../runs-dir-option.js';

interface CompareOptions {
  json?: boolean;
}

export default async function compareCommand(
  runA: string,
  runB: string,
  options: CompareOptions,
  command: Command,
): Promise<number> {
  const runsDir = runsDirOf(command);
  const [a, b] = await Promise.all([readRunSide(runsDir, runA), readRunSide(runsDir, runB)]);
  const comparison = compareRuns(a, b);
  const term = terminal();
  term.out(
    options.json ? JSON.stringify(comparison, null, 2) : formatCompare(comparison, term.colors, term.width),
  );
  return 0;
}
