import { describe, expect, it } from 'vitest';
import { fileHeading, parseFileHeading } from '../../../../src/protocol/agent-output.js';
import { parseInstructions, statedFamilies } from '../../../../src/providers/sim/instructions.js';
import { createRng } from '../../../../src/providers/sim/prng.js';
import { checkTargets } from '../../../../src/providers/sim/roles/check-targets.js';

describe('the file family (docs/sim.md "Agent")', () => {
  it.each([
    ['Write the result to the file `RELEASE_NOTES.md`.', 'RELEASE_NOTES.md', false],
    ['Always save it as out/summary.md.', 'out/summary.md', true],
    ['Put the list in "todo.txt".', 'todo.txt', false],
  ])('reads %j as a file to write', (text, path, firm) => {
    const [rule] = parseInstructions(text).files;
    expect(rule).toMatchObject({ value: path, firm });
    expect(statedFamilies(parseInstructions(text)).has('file')).toBe(true);
  });

  it.each([
    'Write code for Node.js users.',
    'Do not write summary.md.',
    'Read CLAUDE.md first.',
    'Write about version 2.4.0.',
  ])('reads no file in %j', (text) => {
    expect(parseInstructions(text).files).toEqual([]);
  });

  it('a failing check on a file heading becomes the instruction to write that file', () => {
    const [target] = checkTargets(
      { name: 'writes-notes', type: 'contains', failed: 3, total: 4, examples: [] } as never,
      [`output does not contain "${fileHeading('RELEASE_NOTES.md')}"`],
      createRng(1),
    );
    expect(target).toMatchObject({
      family: 'file',
      item: 'RELEASE_NOTES.md',
      instruction: 'Write the result to the file `RELEASE_NOTES.md`.',
    });
  });

  it('a failing file-exists becomes the same instruction; a glob or not-file-exists none', () => {
    const target = (type: string, reason: string, name = 'writes-notes') =>
      checkTargets({ name, type, failed: 3, total: 4, examples: [] } as never, [reason], createRng(1))[0];
    expect(target('file-exists', 'RELEASE_NOTES.md does not exist')).toMatchObject({
      family: 'file',
      item: 'RELEASE_NOTES.md',
    });
    expect(target('file-exists', 'no file matches "*.md"', 'file-exists: *.md')).toBeUndefined();
    expect(target('not-file-exists', 'expected the opposite, but draft.md exists')).toBeUndefined();
  });

  it('headings read back as they are written', () => {
    expect(parseFileHeading(fileHeading('a/b.md'))).toEqual({ path: 'a/b.md', deleted: false });
    expect(parseFileHeading(fileHeading('a/b.md', true))).toEqual({ path: 'a/b.md', deleted: true });
    expect(parseFileHeading('=== not one')).toBeUndefined();
  });
});
