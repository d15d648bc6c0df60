import { describe, expect, it } from 'vitest';
import { chooseSkill, readSkillListing } from '../../../src/agent/sim-skill-choice.js';

const listing = (description: string) => ({ name: 'sql-migrations', description });

describe("the simulated agent's choice of a skill", () => {
  it('uses it when the task shares two of its words (the name counts), stems matched', () => {
    const weak = listing('Helps with database work.');
    expect(chooseSkill(weak, 'Add a migration that creates the orders table')).toEqual({
      use: false,
      matched: ['migration'],
      excluded: [],
    });
    expect(chooseSkill(weak, 'Write a migration for the database').use).toBe(true);
    const better = listing('Helps with database work. Use it to add or change tables and columns.');
    expect(chooseSkill(better, 'Add a migration that creates the orders table')).toMatchObject({
      use: true,
      matched: ['add', 'migration', 'tabl'],
    });
  });

  it('never uses it for a task sharing a word with what the description rules out', () => {
    const narrowed = listing('Write database migrations in SQL. Not for ad-hoc queries or reports.');
    expect(chooseSkill(narrowed, 'Write a SQL query listing the database tables')).toMatchObject({
      use: false,
      excluded: ['query'],
    });
    expect(chooseSkill(narrowed, 'Write a SQL migration').use).toBe(true);
  });

  it('uses it when the task names it, and ignores words that say nothing about it', () => {
    expect(chooseSkill(listing('Anything.'), 'Use the sql-migrations skill here').use).toBe(true);
    expect(
      chooseSkill(
        listing('Use this skill when the user asks for help.'),
        'Please help, I need to ask something',
      ).use,
    ).toBe(false);
  });

  it("reads the description from the front matter, or else the body's first paragraph", () => {
    expect(
      readSkillListing('x', '---\nname: x\ndescription: "Turns notes into release notes."\n---\nBody.\n'),
    ).toEqual({
      name: 'x',
      description: 'Turns notes into release notes.',
    });
    expect(readSkillListing('x', '\nWrite RELEASE_NOTES.md from notes.\n\nMore.\n').description).toBe(
      'Write RELEASE_NOTES.md from notes.',
    );
    expect(readSkillListing('x', '---\n: [\n---\nFirst paragraph.\n').description).toBe('First paragraph.');
  });
});
