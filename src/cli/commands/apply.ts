/**
 * `autoresearch apply <run> [p<n>]`: write the run's best prompt — or a pareto run's pool member
 * (docs/design/pareto-search.md) — into the working tree (docs/design/git-layout.md); with several
 * optimised parts (docs/design/prompt-shapes.md), each changed part into its own file. It refuses,
 * unless --force, when a working-tree prompt file changed after the run started (the user's
 * own edits are never overwritten silently), or when it is a symlink that leaves the
 * repository (the write would land elsewhere on the machine).
 */
import { join, relative } from 'node:path';
import type { Command } from 'commander';
import { AutoresearchError, EXIT, type ExitCode } from '../../errors.js';
import { splitPromptText } from '../../experiment/part-texts.js';
import { checkPromptDrift, readWorkingPrompt, writePromptAtomically } from '../../git/index.js';
import { isMemberName } from '../../report/prompt-refs.js';
import { readJournal } from '../../run/journal.js';
import { type Manifest, readManifest } from '../../run/manifest.js';
import { reduceRun } from '../../run/reducer.js';
import { resolveRunRef } from '../../run/run-ref.js';
import { readBest, readMember } from '../../run/chosen-prompt.js';
import { terminal } from '../../ui/terminal.js';
import { realPathOutside, repositoryRootOf } from '../prompt-escape.js';
import { runsDirOf } from '../runs-dir-option.js';

export default async function applyCommand(
  id: string,
  member: string | undefined,
  flags: { force?: boolean },
  command: Command,
): Promise<ExitCode> {
  const term = terminal();
  if (member !== undefined && !isMemberName(member)) {
    throw new AutoresearchError('E_USAGE', `"${member}" does not name a pool member`, {
      hint: 'name a member of a pareto run as p<n> (p0 is the baseline; `autoresearch show` lists them), or leave it out to apply the best',
    });
  }
  const runsDir = runsDirOf(command, process.env);
  const run = await resolveRunRef(runsDir, id);
  const manifest = await readManifest(run.dir);
  const state = reduceRun((await readJournal(run.dir)).events);
  const chosen = member === undefined ? await readBest(run, state) : await readMember(run.dir, state, member);
  const files = targetsOf(manifest, chosen.text);
  const root = await repositoryRootOf(manifest.projectRoot);
  // Which files already hold the chosen text, read once: they are neither refused nor rewritten.
  const holds = new Set<string>();
  for (const file of files) if ((await readWorkingPrompt(file.target)) === file.text) holds.add(file.target);
  for (const file of files) {
    const drift = await checkPromptDrift(file.target, file.sha256);
    // A file that already holds the chosen text (a second apply) is no edit of the user's to protect.
    const applied = drift.status === 'changed' && holds.has(file.target);
    if (drift.status !== 'unchanged' && !applied && !flags.force) {
      const what = drift.status === 'missing' ? 'no longer exists' : 'was edited after the run started';
      const edits =
        manifest.git === null || drift.status === 'missing'
          ? ''
          : `see what changed since the run started with \`git diff ${manifest.git.base.slice(0, 12)} -- ${file.shown}\`; `;
      throw new AutoresearchError('E_USAGE', `${file.shown} ${what}; not overwriting it`, {
        hint: `${edits}use --force to replace it with ${chosen.name} anyway`,
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
  // Only the files whose text differs from what they hold are written.
  const written: string[] = [];
  for (const file of files) {
    if (holds.has(file.target)) continue;
    await writePromptAtomically(file.target, file.text);
    written.push(file.part === undefined ? file.shown : `${file.shown} (${file.part})`);
  }
  const score = chosen.train === null ? '' : ` (train ${chosen.train.toFixed(3)})`;
  const what = `${chosen.name} of ${run.id} — ${chosen.from}${score} —`;
  term.out(
    written.length > 0
      ? `wrote ${what} to ${written.join(', ')}`
      : `${what} is already in ${files.map((f) => f.shown).join(', ')}`,
  );
  if (state.journalStatus === 'open' && member === undefined)
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
