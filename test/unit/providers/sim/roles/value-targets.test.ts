import { describe, expect, it } from 'vitest';
import { extractKeepBlocks, findPlaceholders } from '../../../../../src/experiment/template.js';
import { MUTATOR_FEEDBACK_FORMAT, type MutatorFeedback } from '../../../../../src/protocol/mutation.js';
import { parseInstructions } from '../../../../../src/providers/sim/instructions.js';
import { createRng } from '../../../../../src/providers/sim/prng.js';
import { checkTargets } from '../../../../../src/providers/sim/roles/check-targets.js';
import { proposeMutation } from '../../../../../src/providers/sim/roles/mutator.js';

const failing = (name: string, type: string, failed = 4) => ({ name, type, failed, total: 6 });
const families = (name: string, type: string, reasons: string[]) =>
  checkTargets(failing(name, type), reasons, createRng(1)).map((t) => t.family);

describe('value rules for failing field checks', () => {
  it('reads the fields a schema check names, most often named first', () => {
    const reasons = [
      'output JSON does not match the schema: data/date must be equal to constant, data/currency must be equal to constant',
      'output JSON does not match the schema: data/vendor_id must be equal to constant, data/date must be equal to constant',
      "output JSON does not match the schema: data must have required property 'total'",
    ];
    expect(families('fields', 'is-json', reasons)).toEqual(['dates', 'codes', 'tool-results', 'numbers']);
  });

  it('keeps the bare-JSON instruction when the output is not JSON or no field maps to a rule', () => {
    expect(families('triage', 'is-json', ['output is not valid JSON'])).toEqual(['json']);
    expect(
      families('triage', 'is-json', [
        'output JSON does not match the schema: data/priority must be equal to one of the allowed values',
      ]),
    ).toEqual(['json']);
  });

  it('reads a javascript check by its name and a tool call made with the wrong arguments', () => {
    expect(families('iso-date', 'javascript', ['returned false'])).toEqual(['dates']);
    expect(families('iso-currency-code', 'javascript', ['returned false'])).toEqual(['codes']);
    expect(families('totals-add-up', 'javascript', ['returned false'])).toEqual(['numbers', 'items']);
    expect(families('word-limit', 'javascript', ['returned false'])).toEqual([]);
    expect(families('lines-sum', 'javascript', ['returned false'])).toEqual(['numbers', 'items']);
    // ticket-triage's check: "summary" holds "sum" but asks nothing of amounts.
    expect(families('summary-under-25-words', 'javascript', ['returned false'])).toEqual([]);
    expect(
      families('lookup_vendor', 'tool-call', [
        'called "lookup_vendor", but not with {"name":"Harbour"}: lookup_vendor {"name":"LEDGER"}',
      ]),
    ).toEqual(['verbatim']);
  });

  it('the mutator adds the rule for the most common field failure, in words the generator obeys', () => {
    const prompt = 'You extract invoices.\nFill in every field of the answer from the invoice.\n';
    const feedback: MutatorFeedback = {
      format: MUTATOR_FEEDBACK_FORMAT,
      strategy: 'focused',
      incumbent: {
        prompt,
        chars: prompt.length,
        placeholders: findPlaceholders(prompt),
        keep_blocks: extractKeepBlocks(prompt).blocks,
        score: { total: 0.5, checks: 0.5 },
        criteria: {},
      },
      max_chars: prompt.length * 4,
      failing_cases: [],
      check_failures: [failing('iso-date', 'javascript', 6), failing('iso-currency-code', 'javascript', 3)],
      history: [],
      guidance: '',
    };
    const replies = Array.from({ length: 40 }, (_, seed) => proposeMutation(feedback, createRng(seed)));
    const dated = replies.filter((r) => r.hypothesis.startsWith('Asking for dates as YYYY-MM-DD'));
    expect(dated.length).toBeGreaterThan(replies.length / 2);
    for (const reply of dated) expect(parseInstructions(reply.prompt).values.dates).toBeDefined();
  });
});
