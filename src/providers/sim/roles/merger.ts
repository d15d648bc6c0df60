/**
 * The simulated mutator resolving a merge's conflicts (docs/design/pareto-search.md,
 * `autoresearch.merge-request/v1`): deterministic, it keeps both sides' instructions. For each
 * conflict: our lines, less the ancestor's lines the other side removed, then their lines we do not
 * already have — each line once. A part that would then exceed its `max_chars` takes our text for
 * its conflicts instead.
 */
import { conflictSlot, type MergeReply, type MergeRequest } from '../../../protocol/merge-request.js';
import { normaliseSpace } from '../text.js';

export function resolveMergeConflicts(request: MergeRequest): MergeReply {
  const resolutions: Record<string, string> = {};
  for (const part of request.parts) {
    const conflicts = request.conflicts.filter((c) => c.part === part.name);
    const both = new Map(conflicts.map((c) => [c.id, keepBoth(c)]));
    const fits = [...fillSlots(part.merged, both)].length <= part.max_chars;
    for (const c of conflicts) resolutions[String(c.id)] = fits ? (both.get(c.id) as string) : c.ours;
  }
  const { ours, theirs } = request;
  return {
    hypothesis: `Keeping the instructions of both ${ours.member} and ${theirs.member} where they overlap will let the merged prompt win the cases each of them wins.`,
    resolutions,
  };
}

function keepBoth(conflict: MergeRequest['conflicts'][number]): string {
  const ancestor = new Set(toLines(conflict.ancestor).map(normaliseSpace));
  const ours = toLines(conflict.ours);
  const theirs = toLines(conflict.theirs);
  const theirsKeys = new Set(theirs.map(normaliseSpace));
  const kept: string[] = [];
  const seen = new Set<string>();
  const add = (line: string) => {
    const key = normaliseSpace(line);
    if (seen.has(key) && key !== '') return;
    seen.add(key);
    kept.push(line);
  };
  // An ancestor line one side dropped was dropped on purpose (replaced or removed).
  for (const line of ours)
    if (!ancestor.has(normaliseSpace(line)) || theirsKeys.has(normaliseSpace(line))) add(line);
  for (const line of theirs) if (!ancestor.has(normaliseSpace(line))) add(line);
  return kept.join('\n');
}

function toLines(text: string): string[] {
  return text === '' ? [] : text.split('\n');
}

/** A part's merged text with each conflict's line replaced by its resolution. */
function fillSlots(merged: string, resolutions: ReadonlyMap<number, string>): string {
  const slots = new Map([...resolutions].map(([id, text]) => [conflictSlot(id), text]));
  return merged
    .split('\n')
    .flatMap((line) => {
      const text = slots.get(line);
      return text === undefined ? [line] : toLines(text);
    })
    .join('\n');
}
