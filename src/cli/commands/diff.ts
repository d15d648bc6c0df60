import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Command } from 'commander';
import { AutoresearchError } from '../../errors.js';
import { joinPartTexts, splitPromptText } from '../../experiment/part-texts.js';
import { readWorkingPrompt } from '../../git/index.js';
import { type DiffHunk, diffPromptParts, diffPrompts } from '../../report/prompt-diff.js';
import {
  choosePair,
  locatePrompt,
  parsePromptRef,
  type PromptRef,
  type PromptTarget,
} from '../../report/prompt-refs.js';
import { isErrno } from '../../run/errno.js';
import { readJournal } from '../../run/journal.js';
import { type Manifest, readManifest } from '../../run/manifest.js';
import { candidatePaths, runPaths } from '../../run/paths.js';
import { reduceRun } from '../../run/reducer.js';
import { resolveRunRef } from '../../run/run-ref.js';
import { type DiffSide, formatUnifiedDiff, formatWordDiff } from '../../ui/format-diff.js';
import { terminal } from '../../ui/terminal.js';
import { runsDirOf } from '../runs-dir-option.js';

interface DiffOptions {
  word?: boolean;
  json?: boolean;
}

export default async function diffCommand(
  runId: string,
  a: string | undefined,
  b: string | undefined,
  options: DiffOptions,
  command: Command,
): Promise<number> {
  const runsDir = runsDirOf(command);
  const refA = a === undefined ? undefined : parsePromptRef(a);
  const refB = b === undefined ? undefined : parsePromptRef(b);
  const { id, dir } = await resolveRunRef(runsDir, runId);
  const state = reduceRun((await readJournal(dir, { onInvalid: 'collect' })).events);
  const [fromRef, toRef] = choosePair(state, refA, refB);
  const manifest = await readManifest(dir);
  const side = async (ref: PromptRef): Promise<Side> => {
    if (ref === 'working') return readWorking(manifest);
    const target = locatePrompt(ref, state);
    return { label: target.label, iteration: target.iteration, text: await readPrompt(dir, id, target) };
  };
  const [from, to] = await Promise.all([side(fromRef), side(toRef)]);
  const [fromText, toText] = [from.text, to.text];
  const hunks = diffPrompts(fromText, toText);
  // Several optimised parts (docs/design/prompt-shapes.md): the prompts are parts documents, shown
  // part by part.
  const names = Object.keys(manifest.experiment.parts ?? {});
  const parts = names.length > 1 ? diffPromptParts(fromText, toText, names) : undefined;
  const term = terminal();
  if (options.json) {
    const json = {
      format: 'autoresearch.diff/v1',
      from,
      to,
      identical: hunks.length === 0,
      hunks,
      ...(parts ? { parts } : {}),
    };
    term.out(JSON.stringify(json, null, 2));
    return 0;
  }
  if (!parts) {
    term.out(formatSides({ label: from.label, text: fromText }, { label: to.label, text: toText }, hunks));
    return 0;
  }
  const fromParts = splitPromptText(fromText, names);
  const toParts = splitPromptText(toText, names);
  term.out(
    parts
      .map(({ part, hunks: partHunks }) =>
        formatSides(
          { label: `${from.label}: ${part}`, text: fromParts[part] as string },
          { label: `${to.label}: ${part}`, text: toParts[part] as string },
          partHunks,
        ),
      )
      .join('\n\n'),
  );
  return 0;

  function formatSides(a: DiffSide, b: DiffSide, sideHunks: DiffHunk[]): string {
    return options.word ? formatWordDiff(a, b, term.colors) : formatUnifiedDiff(a, b, sideHunks, term.colors);
  }
}

interface Side {
  label: string;
  /** The iteration that scored it; null for the working tree (and a best not yet scored). */
  iteration: number | null;
  text: string;
}

/** The prompt file(s) of the run's experiment as they are now: one part's text, or the parts document. */
async function readWorking(manifest: Manifest): Promise<Side> {
  const parts = manifest.experiment.parts;
  const files = parts === undefined ? { prompt: manifest.experiment.prompt } : mapFiles(parts);
  const texts: Record<string, string> = {};
  for (const [part, file] of Object.entries(files)) {
    const text = await readWorkingPrompt(join(manifest.projectRoot, file));
    if (text === null) {
      throw new AutoresearchError('E_NOT_FOUND', `${file} is not in the working tree`, {
        hint: 'it was moved or deleted since the run; compare recorded prompts instead (baseline, best, an iteration)',
      });
    }
    texts[part] = text;
  }
  const shown = Object.values(files).join(', ');
  return { label: `working tree (${shown})`, iteration: null, text: joinPartTexts(texts) };
}

function mapFiles(parts: NonNullable<Manifest['experiment']['parts']>): Record<string, string> {
  return Object.fromEntries(Object.entries(parts).map(([part, { file }]) => [part, file]));
}

async function readPrompt(dir: string, id: string, target: PromptTarget): Promise<string> {
  const files: string[] = [];
  if (target.bestFile) files.push(runPaths(dir).best);
  if (target.iteration !== null) {
    files.push(candidatePaths(dir, target.iteration, target.candidate).prompt);
    // A pool member is exactly its own candidate; an iteration's record may name a candidate whose files a retry replaced.
    if (target.candidate !== 0 && typeof target.ref !== 'object')
      files.push(candidatePaths(dir, target.iteration, 0).prompt);
  }
  for (const same of target.sameAs) files.push(candidatePaths(dir, same.iteration, same.candidate).prompt);
  for (const file of files) {
    try {
      return await readFile(file, 'utf8');
    } catch (error) {
      if (!isErrno(error, 'ENOENT')) throw error;
    }
  }
  throw new AutoresearchError('E_NOT_FOUND', `run ${id} has no recorded prompt for ${target.label}`, {
    hint:
      target.iteration === null
        ? 'no prompt has been scored yet in this run'
        : 'that iteration ended before its prompt was written (an error before any proposal); pick another with `autoresearch show`',
  });
}
