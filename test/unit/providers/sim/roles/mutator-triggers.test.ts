// The simulated mutator on a skill-trigger experiment's feedback: it edits the description in the
// SKILL.md front matter from the train cases shown, widening it for missed requests and narrowing
// it for wrong ones, and the simulated agent then decides those requests the other way.
import { describe, expect, it } from 'vitest';
import { chooseSkill, readSkillListing } from '../../../../../src/agent/sim-skill-choice.js';
import { MUTATOR_FEEDBACK_FORMAT, type MutatorFeedback } from '../../../../../src/protocol/mutation.js';
import { createRng } from '../../../../../src/providers/sim/prng.js';
import { proposeMutation } from '../../../../../src/providers/sim/roles/mutator.js';
import { triggerFixes } from '../../../../../src/providers/sim/roles/mutator-triggers.js';

const SKILL =
  '---\nname: schema-migrations\ndescription: Helps with databases.\n---\n\nWrite each change as a migration.\n';
const MISSED = [
  'Rename the price column in the products table',
  'Add an index on a column of the events table',
];
const WRONG = ['Explain our database schema to a new teammate', 'Draw a diagram of the database schema'];

function feedback(missed: string[], wrong: string[], prompt = SKILL): MutatorFeedback {
  const failing = (query: string, i: number, type: string) => ({
    case_id: `${type}-${i}`,
    vars: { query },
    score: 0,
    output_excerpt: '',
    failed_checks: [{ name: type, type, reason: 'the agent did not use the skill "schema-migrations"' }],
    judge: null,
    failed_expectations: [],
  });
  return {
    format: MUTATOR_FEEDBACK_FORMAT,
    strategy: 'focused',
    incumbent: {
      prompt,
      chars: prompt.length,
      placeholders: [],
      keep_blocks: [],
      score: { total: 0.4, checks: 0.4 },
      criteria: {},
    },
    max_chars: Math.floor(prompt.length * 1.5),
    failing_cases: [
      ...missed.map((q, i) => failing(q, i, 'skill-used')),
      ...wrong.map((q, i) => failing(q, i, 'not-skill-used')),
    ],
    check_failures: [
      { name: 'skill-used', type: 'skill-used', failed: missed.length, total: 6 },
      { name: 'not-skill-used', type: 'not-skill-used', failed: wrong.length, total: 6 },
    ],
    history: [],
    guidance: '',
  };
}

const descriptionOf = (prompt: string) => readSkillListing('schema-migrations', prompt);

describe('trigger fixes', () => {
  it('widens the description with the words the missed requests share, most shared first', () => {
    const [widen] = triggerFixes(feedback(MISSED, []));
    expect(widen?.action).toBe('Adding "column, table, rename, price" to the skill\'s description');
    const edited = widen?.prompts[0] ?? '';
    expect(edited).toContain(
      'description: Helps with databases. Use it when a request mentions column, table, rename or price.\n---\n\nWrite each change',
    );
    for (const request of MISSED) expect(chooseSkill(descriptionOf(SKILL), request).use).toBe(false);
    for (const request of MISSED) expect(chooseSkill(descriptionOf(edited), request).use).toBe(true);
  });

  it('narrows it with the words that set the wrong requests apart, never the ones it is for', () => {
    const [narrow] = triggerFixes(feedback([], WRONG));
    const edited = narrow?.prompts[0] ?? '';
    expect(edited).toContain('Not for requests about explain, teammate, draw or diagram.');
    for (const request of WRONG) expect(chooseSkill(descriptionOf(SKILL), request).use).toBe(true);
    for (const request of WRONG) expect(chooseSkill(descriptionOf(edited), request).use).toBe(false);
  });

  it('extends a sentence it wrote before rather than adding another, and fixes the commoner failure first', () => {
    const widened = SKILL.replace('databases.', 'databases. Use it when a request mentions column or table.');
    const fixes = triggerFixes(feedback(['Drop the legacy sessions table'], WRONG, widened));
    expect(fixes.map((f) => f.action.split(' ')[0])).toEqual(['Ruling', 'Adding']);
    expect(fixes[1]?.prompts[0]).toContain(
      'Use it when a request mentions column, table, drop, legacy or session',
    );
  });

  it('proposes nothing for a prompt without a description in front matter, or without trigger failures', () => {
    expect(triggerFixes(feedback(MISSED, WRONG, 'Write each change as a migration.\n'))).toEqual([]);
    const other = { ...feedback([], []), failing_cases: [] };
    expect(triggerFixes(other)).toEqual([]);
  });

  it('is what the simulated mutator proposes for such feedback, unless it tweaks', () => {
    const replies = Array.from({ length: 20 }, (_, seed) =>
      proposeMutation(feedback(MISSED, WRONG), createRng(seed)),
    );
    const edits = replies.filter((r) =>
      /^(Adding|Ruling out) ".*" (to|in) the skill's description/.test(r.hypothesis),
    );
    expect(edits.length).toBeGreaterThan(10);
    for (const reply of edits)
      expect(reply.prompt).toMatch(
        /^---\nname: schema-migrations\ndescription: Helps with databases\. .+\n---\n/,
      );
  });
});
