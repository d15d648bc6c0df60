import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { AutoresearchError } from '../../errors.js';
import { splitPromptText } from '../../experiment/part-texts.js';
import { type DiffHunk, diffPromptParts, diffPrompts } from '../../report/prompt-diff.js';
import { choosePair, locatePrompt, parsePromptRef, type PromptTarget } from '../../report/prompt-refs.js';
import { isErrno } from '../../run/errno.js';
import { readJournal } from '../../run/journal.js';
import { readManifest } from '../../run/manifest.js';
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
  const from = locatePrompt(fromRef, state);
  const to = locatePrompt(toRef, state);
  const [fromText, toText] = await Promise.all([readPrompt(dir, id, from), readPrompt(dir, id, to)]);
  const hunks = diffPrompts(fromText, toText);
  // Several optimised parts (docs/design/prompt-shapes.md): the prompts are parts documents, shown
  // part by part.
  const names = Object.keys((await readManifest(dir)).experiment.parts ?? {});
  const parts = names.length > 1 ? diffPromptParts(fromText, toText, names) : undefined;
  const term = terminal();
  if (options.json) {
    const side = (target: PromptTarget, text: string) => ({
      label: target.label,
      iteration: target.iteration,
      text,
    });
    const json = {
      format: 'autoresearch.diff/v1',
      from: side(from, fromText),
      to: side(to, toText),
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
