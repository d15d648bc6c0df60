import pc from 'picocolors';
import { describe, expect, it } from 'vitest';
import { diffPrompts } from '../../../src/report/prompt-diff.js';
import { formatUnifiedDiff, formatWordDiff } from '../../../src/ui/format-diff.js';

const plain = pc.createColors(false);
const colour = pc.createColors(true);
const before = {
  label: 'baseline (iteration 0)',
  text: 'Write a cold email.\nMention synergy.\nSign as Dana.\n',
};
const after = {
  label: 'best (iteration 5)',
  text: 'Write a cold email.\nOpen with their pain.\nSign as Dana.\n',
};

describe('formatUnifiedDiff', () => {
  it('prints a unified diff of the two prompts', () => {
    expect(
      formatUnifiedDiff(before, after, diffPrompts(before.text, after.text), plain),
    ).toMatchInlineSnapshot(`
      "--- baseline (iteration 0)
      +++ best (iteration 5)
      @@ -1,3 +1,3 @@
       Write a cold email.
      -Mention synergy.
      +Open with their pain.
       Sign as Dana."
    `);
  });

  it("uses git's colours when colour is on", () => {
    const text = formatUnifiedDiff(before, after, diffPrompts(before.text, after.text), colour);
    expect(text).toContain('\u001b[31m-Mention synergy.\u001b[39m');
    expect(text).toContain('\u001b[32m+Open with their pain.\u001b[39m');
    expect(text).toContain('\u001b[36m@@ -1,3 +1,3 @@\u001b[39m');
  });

  it('says when there is no difference', () => {
    expect(formatUnifiedDiff(before, { ...before, label: 'iteration 2 (discard)' }, [], plain)).toBe(
      'No difference: baseline (iteration 0) and iteration 2 (discard) have the same prompt.',
    );
  });
});

describe('formatWordDiff', () => {
  it('marks changed words inline without colour', () => {
    expect(formatWordDiff(before, after, plain)).toMatchInlineSnapshot(`
      "--- baseline (iteration 0)
      +++ best (iteration 5)
      Write a cold email.
      [-Mention synergy-]{+Open with their pain+}.
      Sign as Dana."
    `);
  });

  it('paints them red and green with colour, without markers', () => {
    const text = formatWordDiff(before, after, colour);
    expect(text).not.toContain('{+');
    expect(text).toContain('\u001b[32mOpen with their pain\u001b[39m');
  });
});

describe('diffPrompts', () => {
  it('drops the no-newline markers and counts nothing for equal prompts', () => {
    const hunks = diffPrompts('a\nb', 'a\nc');
    expect(hunks[0]?.lines).toEqual([
      { op: 'context', text: 'a' },
      { op: 'remove', text: 'b' },
      { op: 'add', text: 'c' },
    ]);
    expect(diffPrompts('same\n', 'same\n')).toEqual([]);
  });
});
