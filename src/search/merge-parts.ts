/**
 * The three-way merge of two pool members (docs/design/pareto-search.md), per part
 * (docs/design/prompt-shapes.md), pure. The `diff` library (v9) has no merge of its own, so the
 * merge is built from its line diffs: the edits ancestor → ours and ancestor → theirs as hunks (a
 * range of ancestor lines and what replaced it); hunks of the two sides that do not overlap are
 * both applied, overlapping ones make a conflict holding the ancestor's, our and their text of that
 * region, for the mutator to resolve (src/search/propose-merge.ts). Identical edits on both sides
 * are taken once.
 *
 * Two hunks overlap when their ancestor ranges share a line, when both insert at the same place
 * (which goes first is a choice), or when one inserts strictly inside the other's range. An
 * insertion at the edge of the other side's range is not a conflict: its place is plain.
 */
import { diffArrays } from 'diff';
import { joinPartTexts, splitPromptText } from '../experiment/part-texts.js';

import type { MergeConflict } from '../run/mutation-record.js';

export type { MergeConflict };

export type MergeChunk = { kind: 'lines'; lines: string[] } | { kind: 'conflict'; conflict: MergeConflict };

export interface PartMerge {
  name: string;
  chunks: MergeChunk[];
}

export interface PromptMerge {
  parts: PartMerge[];
  /** Every conflict, in document order (ids 1…n). */
  conflicts: MergeConflict[];
}

/** Resolved text by conflict id: every conflict of the merge needs one. */
export type Resolutions = ReadonlyMap<number, string>;

/** One side's edit: ancestor lines [start, end) become `lines` (start = end: an insertion). */
interface Hunk {
  side: 'ours' | 'theirs';
  start: number;
  end: number;
  lines: string[];
}

/**
 * Merges the edits ancestor → ours and ancestor → theirs of every part. `names` are the
 * optimised parts in request order (one name: the prompts are that part's text).
 */
export function mergePrompts(
  ancestor: string,
  ours: string,
  theirs: string,
  names: readonly string[],
): PromptMerge {
  const base = splitPromptText(ancestor, names);
  const left = splitPromptText(ours, names);
  const right = splitPromptText(theirs, names);
  const conflicts: MergeConflict[] = [];
  const parts = names.map((name) => ({
    name,
    chunks: mergeText(base[name] as string, left[name] as string, right[name] as string, name, conflicts),
  }));
  return { parts, conflicts };
}

/** The merged prompt with each conflict replaced by its resolution; throws when one is missing. */
export function resolveMerge(merge: PromptMerge, resolutions: Resolutions = new Map()): string {
  const texts: Record<string, string> = {};
  for (const part of merge.parts) {
    const lines: string[] = [];
    for (const chunk of part.chunks) {
      if (chunk.kind === 'lines') {
        lines.push(...chunk.lines);
        continue;
      }
      const resolved = resolutions.get(chunk.conflict.id);
      if (resolved === undefined)
        throw new Error(`resolveMerge: conflict ${chunk.conflict.id} has no resolution`);
      lines.push(...toLines(resolved));
    }
    texts[part.name] = lines.join('\n');
  }
  return joinPartTexts(texts);
}

/**
 * The merged text of one part with every conflict shown as a line `slot(id)` (for the mutator
 * to see where each conflict sits among the lines that merged cleanly).
 */
export function mergedWithSlots(part: PartMerge, slot: (id: number) => string): string {
  return part.chunks
    .flatMap((chunk) => (chunk.kind === 'lines' ? chunk.lines : [slot(chunk.conflict.id)]))
    .join('\n');
}

/**
 * A region's lines as one text, and back. Lines are split on "\n" only, so a text joins back
 * exactly; a region of no lines is the empty text (so an empty resolution removes the region).
 */
function toLines(text: string): string[] {
  return text === '' ? [] : text.split('\n');
}

function fromLines(lines: readonly string[]): string {
  return lines.join('\n');
}

function sameLines(x: readonly string[], y: readonly string[]): boolean {
  return x.length === y.length && x.every((line, i) => line === y[i]);
}

function mergeText(
  ancestor: string,
  ours: string,
  theirs: string,
  part: string,
  conflicts: MergeConflict[],
): MergeChunk[] {
  const base = ancestor.split('\n');
  const hunks = [
    ...hunksOf(base, ours.split('\n'), 'ours'),
    ...hunksOf(base, theirs.split('\n'), 'theirs'),
  ].sort((x, y) => x.start - y.start || x.end - y.end || (x.side === 'ours' ? -1 : 1));
  const chunks: MergeChunk[] = [];
  let cursor = 0;
  const emit = (lines: string[]) => {
    if (lines.length === 0) return;
    const last = chunks.at(-1);
    if (last?.kind === 'lines') last.lines.push(...lines);
    else chunks.push({ kind: 'lines', lines: [...lines] });
  };
  for (const group of groupOverlapping(hunks)) {
    const start = Math.min(...group.map((h) => h.start));
    const end = Math.max(...group.map((h) => h.end));
    emit(base.slice(cursor, start));
    cursor = end;
    const region = base.slice(start, end);
    const left = applyHunks(region, start, group, 'ours');
    const right = applyHunks(region, start, group, 'theirs');
    const sides = new Set(group.map((h) => h.side));
    // One side alone, or both making the same edit: nothing to decide.
    if (sides.size === 1 || sameLines(left, right)) {
      emit(sides.has('ours') ? left : right);
      continue;
    }
    const conflict: MergeConflict = {
      id: conflicts.length + 1,
      part,
      ancestor: fromLines(region),
      ours: fromLines(left),
      theirs: fromLines(right),
    };
    conflicts.push(conflict);
    chunks.push({ kind: 'conflict', conflict });
  }
  emit(base.slice(cursor));
  return chunks;
}

/** The edits that turn `base` into `side`, from the library's line-by-line diff. */
function hunksOf(base: string[], side: string[], name: Hunk['side']): Hunk[] {
  const hunks: Hunk[] = [];
  let at = 0;
  let open: Hunk | null = null;
  for (const change of diffArrays(base, side)) {
    if (!change.added && !change.removed) {
      if (open) hunks.push(open);
      open = null;
      at += change.count;
      continue;
    }
    open ??= { side: name, start: at, end: at, lines: [] };
    if (change.removed) {
      at += change.count;
      open.end = at;
    } else open.lines.push(...change.value);
  }
  if (open) hunks.push(open);
  return hunks;
}

/**
 * Hunks sorted by start, grouped so that any two overlapping hunks of different sides share a
 * group. Hunks of one side never overlap each other (the diff separates them by a common line),
 * so a hunk that overlaps none of the open group starts the next one.
 */
function groupOverlapping(hunks: readonly Hunk[]): Hunk[][] {
  const groups: Hunk[][] = [];
  let open: Hunk[] = [];
  for (const hunk of hunks) {
    if (open.some((other) => other.side !== hunk.side && overlaps(other, hunk))) open.push(hunk);
    else {
      if (open.length > 0) groups.push(open);
      open = [hunk];
    }
  }
  if (open.length > 0) groups.push(open);
  return groups;
}

function overlaps(x: Hunk, y: Hunk): boolean {
  const xInserts = x.start === x.end;
  const yInserts = y.start === y.end;
  if (xInserts && yInserts) return x.start === y.start;
  if (xInserts) return y.start < x.start && x.start < y.end;
  if (yInserts) return x.start < y.start && y.start < x.end;
  return x.start < y.end && y.start < x.end;
}

/** The region [start, start + region.length) of the ancestor with one side's hunks applied. */
function applyHunks(
  region: readonly string[],
  start: number,
  group: readonly Hunk[],
  side: Hunk['side'],
): string[] {
  const lines: string[] = [];
  let at = start;
  for (const hunk of group.filter((h) => h.side === side)) {
    lines.push(...region.slice(at - start, hunk.start - start), ...hunk.lines);
    at = hunk.end;
  }
  lines.push(...region.slice(at - start));
  return lines;
}
