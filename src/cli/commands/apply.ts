/**
 * `autoresearch apply <run>`: write the run's best prompt into the working tree (SPEC 9).
 * It refuses, unless --force, when the working-tree prompt changed after the run started
 * (the user's own edits are never overwritten silently), or when it is a symlink that leaves
 * the repository (the write would land elsewhere on the machine).
 */
import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { Command } from 'commander';
import { AutoresearchError, EXIT, type ExitCode } from '../../errors.js';
import { checkPromptDrift, writePromptAtomically } from '../../git/index.js';
import { readJournal } from '../../run/journal.js';
import { readManifest } from '../../run/manifest.js';
import { candidatePaths, runPaths } from '../../run/paths.js';
import { reduceRun } from '../../run/reducer.js';
import { resolveRunId } from '../../run/run-id.js';
import { terminal } from '../../ui/terminal.js';
import { realPathOutside, repositoryRootOf } from '../prompt-escape.js';
import { runsDirOf } from '../runs-dir-option.js';

export default async function applyCommand(
  id: string,
  flags: { force?: boolean },
  command: Command,
): Promise<ExitCode> {
  const term = terminal();
  const runsDir = runsDirOf(command, process.env);
  const run = await resolveRunId(runsDir, id);
  const manifest = await readManifest(run.dir);
  const state = reduceRun((await readJournal(run.dir)).events);
  const incumbent = state.incumbent;
  if (!incumbent) {
    throw new AutoresearchError('E_USAGE', `run ${run.id} has no evaluated prompt yet`, {
      hint: `resume it first: autoresearch resume ${run.id}`,
    });
  }
  const record = state.iterations.find((it) => it.iteration === incumbent.iteration);
  const best = await readFile(
    candidatePaths(run.dir, incumbent.iteration, record?.candidate ?? 0).prompt,
    'utf8',
  ).catch(() => readFile(runPaths(run.dir).best, 'utf8'));
  const target = join(manifest.projectRoot, manifest.experiment.prompt);
  const shown = relative(process.cwd(), target) || target;
  const drift = await checkPromptDrift(target, manifest.hashes.prompt);
  if (drift.status !== 'unchanged' && !flags.force) {
    const what = drift.status === 'missing' ? 'no longer exists' : 'was edited after the run started';
    throw new AutoresearchError('E_USAGE', `${shown} ${what}; not overwriting it`, {
      hint: `compare with \`autoresearch diff ${run.id}\`, then use --force to replace it anyway`,
    });
  }
  const outside = await realPathOutside(target, await repositoryRootOf(manifest.projectRoot));
  if (outside !== undefined && !flags.force) {
    throw new AutoresearchError(
      'E_USAGE',
      `${shown} is a symlink to ${outside}, outside the repository; not writing through it`,
      { hint: `check where the link points; use --force to write ${outside} anyway` },
    );
  }
  await writePromptAtomically(target, best);
  const score = incumbent.train === null ? '' : ` (train ${incumbent.train.toFixed(3)})`;
  const from =
    incumbent.iteration === (state.baseline?.iteration ?? 0)
      ? 'the baseline'
      : `iteration ${incumbent.iteration}`;
  term.out(`wrote the best prompt of ${run.id} — ${from}${score} — to ${shown}`);
  if (state.journalStatus === 'open')
    term.err(term.colors.yellow('note: the run is still going; a later keep may replace this best'));
  return EXIT.ok;
}
