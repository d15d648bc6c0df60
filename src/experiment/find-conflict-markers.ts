/**
 * Git's conflict markers left in a file mid-merge (`git status` shows it as `UU`). A prompt
 * holding them would become the baseline, markers and both sides included. `<<<<<<<` and
 * `>>>>>>>` at a line start are markers on their own; `=======` and `|||||||` only inside a
 * block, since seven `=` under a line is also a Markdown heading.
 */

export interface ConflictBlock {
  /** 1-based lines of the block's markers, in order. */
  lines: number[];
}

const OPEN = /^<{7}(?:[ \t]|$)/;
const CLOSE = /^>{7}(?:[ \t]|$)/;
const MIDDLE = /^(?:={7}|\|{7}(?:[ \t].*)?)$/;

export function findConflictMarkers(text: string): ConflictBlock[] {
  const blocks: ConflictBlock[] = [];
  let open: ConflictBlock | undefined;
  for (const [index, raw] of text.split('\n').entries()) {
    const line = raw.replace(/\r$/, '');
    if (OPEN.test(line)) {
      open = { lines: [index + 1] };
      blocks.push(open);
    } else if (CLOSE.test(line)) {
      if (open) open.lines.push(index + 1);
      else blocks.push({ lines: [index + 1] });
      open = undefined;
    } else if (open && MIDDLE.test(line)) {
      open.lines.push(index + 1);
    }
  }
  return blocks;
}
