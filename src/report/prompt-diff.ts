/**
 * Line diffs of two prompts as data (hunks of context/add/remove lines), shared by
 * `autoresearch diff` and the report so both show exactly the same change. A prompt with
 * several optimised parts (docs/design/prompt-shapes.md) is also diffed part by part.
 */
import { structuredPatch } from 'diff';
import { splitPromptText } from '../experiment/part-texts.js';

export type DiffOp = 'context' | 'add' | 'remove';

export interface DiffLine {
  op: DiffOp;
  text: string;
}

export interface DiffHunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: DiffLine[];
}

export const DEFAULT_CONTEXT = 3;

export function diffPrompts(before: string, after: string, context = DEFAULT_CONTEXT): DiffHunk[] {
  const patch = structuredPatch('a', 'b', before, after, undefined, undefined, { context });
  return patch.hunks.map((hunk) => ({
    oldStart: hunk.oldStart,
    oldLines: hunk.oldLines,
    newStart: hunk.newStart,
    newLines: hunk.newLines,
    // "\ No newline at end of file" markers say nothing a reader of a prompt needs.
    lines: hunk.lines.filter((line) => !line.startsWith('\\')).map(toDiffLine),
  }));
}

function toDiffLine(line: string): DiffLine {
  const mark = line[0];
  const text = line.slice(1);
  if (mark === '+') return { op: 'add', text };
  if (mark === '-') return { op: 'remove', text };
  return { op: 'context', text };
}

/** `@@ -1,4 +1,5 @@`, as in a unified diff. */
export function formatHunkHeader(hunk: DiffHunk): string {
  return `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`;
}

export function countChanges(hunks: readonly DiffHunk[]): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const hunk of hunks) {
    for (const line of hunk.lines) {
      if (line.op === 'add') added++;
      else if (line.op === 'remove') removed++;
    }
  }
  return { added, removed };
}

/** One optimised part's change. */
export interface PartDiff {
  part: string;
  identical: boolean;
  added: number;
  removed: number;
  hunks: DiffHunk[];
}

/** Two parts documents (part-texts.ts) with the parts `names`, diffed part by part in that order. */
export function diffPromptParts(before: string, after: string, names: readonly string[]): PartDiff[] {
  const from = splitPromptText(before, names);
  const to = splitPromptText(after, names);
  return names.map((part) => {
    const hunks = diffPrompts(from[part] as string, to[part] as string);
    return { part, identical: hunks.length === 0, ...countChanges(hunks), hunks };
  });
}
