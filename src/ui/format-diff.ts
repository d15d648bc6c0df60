/**
 * Prompt diffs as terminal text: a unified line diff (git's colours on a TTY) or a word diff
 * that marks changes inline — `[-removed-]{+added+}` without colour, red and green with it.
 */
import { diffWords } from 'diff';
import { formatHunkHeader, type DiffHunk } from '../report/prompt-diff.js';
import type { Colors } from './terminal.js';

export interface DiffSide {
  label: string;
  text: string;
}

export function formatUnifiedDiff(
  from: DiffSide,
  to: DiffSide,
  hunks: readonly DiffHunk[],
  c: Colors,
): string {
  if (hunks.length === 0) return identical(from, to, c);
  const lines = [c.bold(`--- ${from.label}`), c.bold(`+++ ${to.label}`)];
  for (const hunk of hunks) {
    lines.push(c.cyan(formatHunkHeader(hunk)));
    for (const line of hunk.lines) {
      if (line.op === 'add') lines.push(c.green(`+${line.text}`));
      else if (line.op === 'remove') lines.push(c.red(`-${line.text}`));
      else lines.push(` ${line.text}`);
    }
  }
  return lines.join('\n');
}

export function formatWordDiff(from: DiffSide, to: DiffSide, c: Colors): string {
  if (from.text === to.text) return identical(from, to, c);
  const marked = !c.isColorSupported;
  const body = diffWords(from.text, to.text)
    .map((change) => {
      if (change.added) return marked ? `{+${change.value}+}` : c.green(change.value);
      if (change.removed) return marked ? `[-${change.value}-]` : c.red(c.strikethrough(change.value));
      return change.value;
    })
    .join('');
  return [c.bold(`--- ${from.label}`), c.bold(`+++ ${to.label}`), body.replace(/\n$/, '')].join('\n');
}

function identical(from: DiffSide, to: DiffSide, c: Colors): string {
  return c.dim(`No difference: ${from.label} and ${to.label} have the same prompt.`);
}
