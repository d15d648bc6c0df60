/**
 * `autoresearch apply <run>`: write the run's best prompt into the working tree (SPEC 9) —
 * with several optimised parts (SPEC 12), each changed part into its own file. It refuses,
 * unless --force, when a working-tree prompt file changed after the run started (the user's
 * own edits are never overwritten silently), or when it is a symlink that leaves the
 * repository (the write would land elsewhere on the machine).
 */
import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { Command } from 'commander';
import { AutoresearchError, EXIT, type ExitCode } from '../../errors.js';
import { splitPromptText } from '../../experiment/part-texts.js';
import { checkPromptDrift, readWorkingPrompt, writePromptAtomically } from '../../git/index.js';
import { readJournal } from '../../run/journal.js';
import { type Manifest, readManifest } from '../../run/manifest.js';
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
  const files = targetsOf(manifest, best);
  const root = await repositoryRootOf(manifest.projectRoot);
  for (const file of files) {
    const drift = await checkPromptDrift(file.target, file.sha256);
    if (drift.status !== 'unchanged' && !flags.force) {
      const what = drift.status === 'missing' ? 'no longer exists' : 'was edited after the run started';
      throw new AutoresearchError('E_USAGE', `${file.shown} ${what}; not overwriting it`, {
        hint: `compare with \`autoresearch diff ${run.id}\`, then use --force to replace it anyway`,
      });
    }
    const outside = await realPathOutside(file.target, root);
    if (outside !== undefined && !flags.force) {
      throw new AutoresearchError(
        'E_USAGE',
        `${file.shown} is a symlink to ${outside}, outside the repository; not writing through it`,
        { hint: `check where the link points; use --force to write ${outside} anyway` },
      );
    }
  }
  // One part: written as always. Several: only the parts whose text differs from the file.
  const written: string[] = [];
  for (const file of files) {
    if (file.part !== undefined && (await readWorkingPrompt(file.target)) === file.text) continue;
    await writePromptAtomically(file.target, file.text);
    written.push(file.part === undefined ? file.shown : `${file.shown} (${file.part})`);
  }
  const score = incumbent.train === null ? '' : ` (train ${incumbent.train.toFixed(3)})`;
  const from =
    incumbent.iteration === (state.baseline?.iteration ?? 0)
      ? 'the baseline'
      : `iteration ${incumbent.iteration}`;
  term.out(
    written.length > 0
      ? `wrote the best prompt of ${run.id} — ${from}${score} — to ${written.join(', ')}`
      : `the best prompt of ${run.id} — ${from}${score} — is already in ${files.map((f) => f.shown).join(', ')}`,
  );
  if (state.journalStatus === 'open')
    term.err(term.colors.yellow('note: the run is still going; a later keep may replace this best'));
  return EXIT.ok;
}

interface Target {
  /** The part the file holds; undefined for a prompt of one part. */
  part?: string;
  target: string;
  shown: string;
  /** The file's sha256 when the run started. */
  sha256: string;
  text: string;
}

/** The prompt file, or with several optimised parts each part's file with its text of `best`. */
function targetsOf(manifest: Manifest, best: string): Target[] {
  const where = (file: string) => {
    const target = join(manifest.projectRoot, file);
    return { target, shown: relative(process.cwd(), target) || target };
  };
  const parts = manifest.experiment.parts;
  if (parts === undefined)
    return [{ ...where(manifest.experiment.prompt), sha256: manifest.hashes.prompt, text: best }];
  const texts = splitPromptText(best, Object.keys(parts));
  return Object.entries(parts).map(([part, { file, sha256 }]) => ({
    part,
    ...where(file),
    sha256,
    text: texts[part] as string,
  }));
}
