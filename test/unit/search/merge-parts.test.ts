import { describe, expect, it } from 'vitest';
import { joinPartTexts } from '../../../src/experiment/part-texts.js';
import { conflictSlot } from '../../../src/protocol/merge-request.js';
import { mergedWithSlots, mergePrompts, resolveMerge } from '../../../src/search/merge-parts.js';
import { seededUniform } from '../../../src/search/pool.js';

const ONE = ['prompt'];
const lines = (...text: string[]) => text.join('\n');

const ANCESTOR = lines(
  'Write a cold email to {{name}}.',
  'Keep it short.',
  'Mention the product.',
  'Sign it as "The Team".',
  'Be friendly.',
);

describe('mergePrompts: one part', () => {
  it('applies edits of different lines from both sides, with no conflict', () => {
    const ours = ANCESTOR.replace('Keep it short.', 'Keep it under 120 words.');
    const theirs = ANCESTOR.replace('Be friendly.', 'Be friendly and end with a question.');
    const merge = mergePrompts(ANCESTOR, ours, theirs, ONE);
    expect(merge.conflicts).toEqual([]);
    expect(resolveMerge(merge)).toBe(
      lines(
        'Write a cold email to {{name}}.',
        'Keep it under 120 words.',
        'Mention the product.',
        'Sign it as "The Team".',
        'Be friendly and end with a question.',
      ),
    );
  });

  it('keeps insertions, deletions and an insertion at the edge of the other side’s edit', () => {
    // ours deletes line 2 and appends a line; theirs inserts right after the deleted line.
    const ours = lines(
      'Write a cold email to {{name}}.',
      'Mention the product.',
      'Sign it as "The Team".',
      'Be friendly.',
      'Use plain words.',
    );
    const theirs = lines(
      'Write a cold email to {{name}}.',
      'Keep it short.',
      'Name one pain point.',
      'Mention the product.',
      'Sign it as "The Team".',
      'Be friendly.',
    );
    const merge = mergePrompts(ANCESTOR, ours, theirs, ONE);
    expect(merge.conflicts).toEqual([]);
    expect(resolveMerge(merge)).toBe(
      lines(
        'Write a cold email to {{name}}.',
        'Name one pain point.',
        'Mention the product.',
        'Sign it as "The Team".',
        'Be friendly.',
        'Use plain words.',
      ),
    );
  });

  it('takes an edit both sides made once', () => {
    const both = ANCESTOR.replace('Keep it short.', 'Keep it under 100 words.');
    const theirs = both.replace('Be friendly.', 'Be warm.');
    const merge = mergePrompts(ANCESTOR, both, theirs, ONE);
    expect(merge.conflicts).toEqual([]);
    expect(resolveMerge(merge)).toBe(theirs);
  });

  it('reports overlapping edits as a conflict with the ancestor’s, our and their text', () => {
    const ours = ANCESTOR.replace(
      'Keep it short.\nMention the product.',
      'Keep it under 120 words.\nMention the product by name.',
    );
    const theirs = ANCESTOR.replace('Mention the product.', 'Mention the price.');
    const merge = mergePrompts(ANCESTOR, ours, theirs, ONE);
    expect(merge.conflicts).toEqual([
      {
        id: 1,
        part: 'prompt',
        ancestor: lines('Keep it short.', 'Mention the product.'),
        ours: lines('Keep it under 120 words.', 'Mention the product by name.'),
        theirs: lines('Keep it short.', 'Mention the price.'),
      },
    ]);
    const [part] = merge.parts;
    expect(mergedWithSlots(part as never, conflictSlot)).toBe(
      lines('Write a cold email to {{name}}.', '[[conflict 1]]', 'Sign it as "The Team".', 'Be friendly.'),
    );
    const resolved = resolveMerge(
      merge,
      new Map([[1, lines('Keep it under 120 words.', 'Mention the product by name and its price.')]]),
    );
    expect(resolved).toBe(
      lines(
        'Write a cold email to {{name}}.',
        'Keep it under 120 words.',
        'Mention the product by name and its price.',
        'Sign it as "The Team".',
        'Be friendly.',
      ),
    );
    expect(() => resolveMerge(merge)).toThrow(/conflict 1 has no resolution/);
    // An empty resolution removes the region.
    expect(resolveMerge(merge, new Map([[1, '']]))).toBe(
      lines('Write a cold email to {{name}}.', 'Sign it as "The Team".', 'Be friendly.'),
    );
  });

  it('makes two insertions at the same place a conflict (which goes first is a choice)', () => {
    const ours = `${ANCESTOR}\nAdd a P.S.`;
    const theirs = `${ANCESTOR}\nAvoid jargon.`;
    const merge = mergePrompts(ANCESTOR, ours, theirs, ONE);
    expect(merge.conflicts).toEqual([
      { id: 1, part: 'prompt', ancestor: '', ours: 'Add a P.S.', theirs: 'Avoid jargon.' },
    ]);
    expect(resolveMerge(merge, new Map([[1, 'Add a P.S.\nAvoid jargon.']]))).toBe(
      `${ANCESTOR}\nAdd a P.S.\nAvoid jargon.`,
    );
  });

  it('numbers several conflicts in document order and keeps the clean edits between them', () => {
    const ours = lines(
      'Write a cold email to {{name}}.',
      'Keep it tiny.',
      'Mention the product.',
      'Sign it as "The Team".',
      'Be formal.',
    );
    const theirs = lines(
      'Write a cold email to {{name}}.',
      'Keep it brief.',
      'Mention the product.',
      'Add a P.S.',
      'Sign it as "The Team".',
      'Be casual.',
    );
    const merge = mergePrompts(ANCESTOR, ours, theirs, ONE);
    expect(merge.conflicts.map((c) => [c.id, c.ancestor, c.ours, c.theirs])).toEqual([
      [1, 'Keep it short.', 'Keep it tiny.', 'Keep it brief.'],
      [2, 'Be friendly.', 'Be formal.', 'Be casual.'],
    ]);
    expect(
      resolveMerge(
        merge,
        new Map([
          [1, 'Keep it brief.'],
          [2, 'Be formal.'],
        ]),
      ),
    ).toBe(
      lines(
        'Write a cold email to {{name}}.',
        'Keep it brief.',
        'Mention the product.',
        'Add a P.S.',
        'Sign it as "The Team".',
        'Be formal.',
      ),
    );
  });

  it('makes a conflict span a side’s whole run of changed lines', () => {
    // theirs changes lines 1 and 2 (one hunk), ours only line 2: the region is both lines.
    const ours = ANCESTOR.replace('Keep it short.', 'Keep it tiny.');
    const theirs = ANCESTOR.replace(
      'Write a cold email to {{name}}.\nKeep it short.',
      'Write a short cold email to {{name}}.\nKeep it brief.',
    );
    const [conflict] = mergePrompts(ANCESTOR, ours, theirs, ONE).conflicts;
    expect(conflict).toMatchObject({
      ancestor: lines('Write a cold email to {{name}}.', 'Keep it short.'),
      ours: lines('Write a cold email to {{name}}.', 'Keep it tiny.'),
      theirs: lines('Write a short cold email to {{name}}.', 'Keep it brief.'),
    });
  });

  it('keeps line endings and a trailing newline exactly', () => {
    const ancestor = 'A.\nB.\nC.\n';
    const merge = mergePrompts(ancestor, 'A!\nB.\nC.\n', 'A.\nB.\nC!\n', ONE);
    expect(resolveMerge(merge)).toBe('A!\nB.\nC!\n');
    expect(resolveMerge(mergePrompts('', 'x', '', ONE))).toBe('x');
  });
});

describe('mergePrompts: several parts', () => {
  const NAMES = ['system', 'messages[1]'];
  const doc = (system: string, user: string) => joinPartTexts({ system, 'messages[1]': user });

  it('merges edits in different parts cleanly and reports a conflict in the part it is in', () => {
    const ancestor = doc('You write emails.\nBe brief.', 'Write to {{name}}.\nMention {{product}}.');
    const ours = doc('You write sales emails.\nBe brief.', 'Write to {{name}}.\nMention {{product}}.');
    const theirs = doc(
      'You write emails.\nBe brief.',
      'Write to {{name}}.\nMention {{product}} and its price.',
    );
    const clean = mergePrompts(ancestor, ours, theirs, NAMES);
    expect(clean.conflicts).toEqual([]);
    expect(resolveMerge(clean)).toBe(
      doc('You write sales emails.\nBe brief.', 'Write to {{name}}.\nMention {{product}} and its price.'),
    );

    const oursUser = doc('You write emails.\nBe brief.', 'Write to {{name}}.\nMention {{product}} twice.');
    const conflicted = mergePrompts(ancestor, oursUser, theirs, NAMES);
    expect(conflicted.conflicts).toEqual([
      {
        id: 1,
        part: 'messages[1]',
        ancestor: 'Mention {{product}}.',
        ours: 'Mention {{product}} twice.',
        theirs: 'Mention {{product}} and its price.',
      },
    ]);
    expect(conflicted.parts.map((p) => p.name)).toEqual(NAMES);
    expect(resolveMerge(conflicted, new Map([[1, 'Mention {{product}} twice, with its price.']]))).toBe(
      doc('You write emails.\nBe brief.', 'Write to {{name}}.\nMention {{product}} twice, with its price.'),
    );
  });
});

describe('mergePrompts: properties over seeded random edits', () => {
  const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'eps', 'zeta', 'eta', 'theta'];
  const draw = (key: string, n: number) => Math.floor(seededUniform(key) * n);
  const edit = (base: string[], key: string): string[] => {
    const out = [...base];
    const edits = 1 + draw(`${key}:n`, 3);
    for (let e = 0; e < edits; e++) {
      const at = draw(`${key}:${e}:at`, out.length + 1);
      const kind = draw(`${key}:${e}:kind`, 3);
      const word = `${WORDS[draw(`${key}:${e}:w`, WORDS.length)]}-${key}-${e}`;
      if (kind === 0) out.splice(at, 0, word);
      else if (kind === 1 && at < out.length) out.splice(at, 1);
      else if (at < out.length) out[at] = word;
    }
    return out;
  };

  it('returns the other side when one side is the ancestor, and one side when both are equal', () => {
    for (let i = 0; i < 200; i++) {
      const base = Array.from(
        { length: 3 + draw(`len:${i}`, 8) },
        (_, j) => WORDS[draw(`b:${i}:${j}`, WORDS.length)] as string,
      );
      const ancestor = base.join('\n');
      const side = edit(base, `s${i}`).join('\n');
      expect(resolveMerge(mergePrompts(ancestor, ancestor, side, ONE))).toBe(side);
      expect(resolveMerge(mergePrompts(ancestor, side, ancestor, ONE))).toBe(side);
      expect(resolveMerge(mergePrompts(ancestor, side, side, ONE))).toBe(side);
    }
  });

  it('invents no line, and keeps every line a side added when its conflicts go its way', () => {
    for (let i = 0; i < 200; i++) {
      const base = Array.from({ length: 4 + draw(`len2:${i}`, 8) }, (_, j) => `line ${j}`);
      const ancestor = base.join('\n');
      const ours = edit(base, `o${i}`).join('\n');
      const theirs = edit(base, `t${i}`).join('\n');
      const merge = mergePrompts(ancestor, ours, theirs, ONE);
      const takeOurs = new Map(merge.conflicts.map((c) => [c.id, c.ours]));
      const takeTheirs = new Map(merge.conflicts.map((c) => [c.id, c.theirs]));
      // Every line of the result comes from the ancestor or one of the sides.
      const known = new Set([...base, ...ours.split('\n'), ...theirs.split('\n')]);
      for (const text of [resolveMerge(merge, takeOurs), resolveMerge(merge, takeTheirs)])
        for (const line of text === '' ? [] : text.split('\n')) expect(known.has(line)).toBe(true);
      const kept = resolveMerge(merge, takeOurs).split('\n');
      for (const line of ours.split('\n').filter((l) => !base.includes(l))) expect(kept).toContain(line);
    }
  });
});
