import { describe, expect, it } from 'vitest';
import { containsJsonCheck } from '../../../../src/checks/types/contains-json.js';
import type { CheckEntry } from '../../../../src/experiment/schema.js';

const context = { vars: {}, toolCalls: [], baseDir: process.cwd(), env: {} };

async function run(entry: CheckEntry, output: string) {
  return containsJsonCheck.run(output, entry, context);
}

describe('contains-json reads JSON objects only, as promptfoo does', () => {
  it('contains-json fails a bare JSON array like promptfoo', async () => {
    for (const output of ['[1, 2, 3]', 'The ids are [1, 2, 3].', '```json\n["a", "b"]\n```']) {
      const result = await run({ type: 'contains-json' }, output);
      expect(result.pass, output).toBe(false);
      expect(result.reason).toMatch(/no JSON object/);
    }
  });

  it('finds the objects inside a list, and validates those against the schema', async () => {
    expect((await run({ type: 'contains-json' }, '[{"a": 1}, {"b": 2}]')).pass).toBe(true);
    const schema = { type: 'object', required: ['b'] };
    expect((await run({ type: 'contains-json', value: schema }, 'x [{"a": 1}, {"b": 2}] y')).pass).toBe(true);
    // A list schema never matches: no list is a candidate.
    const listSchema = { type: 'array' };
    expect((await run({ type: 'contains-json', value: listSchema }, '```json\n[{"a": 1}]\n```')).pass).toBe(
      false,
    );
  });
});
