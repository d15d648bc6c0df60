/**
 * The mutator's request for a prompt with several optimisable parts (docs/design/prompt-shapes.md):
 * each part by name with its own rules, the fixed parts read-only, the `edits` reply form, and
 * failing checks attributed to a part when its words sit in exactly one part ("unknown" otherwise).
 */
import { describe, expect, it } from 'vitest';
import { joinPartTexts } from '../../../src/experiment/part-texts.js';
import type { PromptShape } from '../../../src/experiment/types.js';
import { checkAttributor } from '../../../src/loop/attribute-failure.js';
import { buildMutatorFeedback, partsContextOf } from '../../../src/loop/build-feedback.js';
import {
  buildMutatorRequest,
  MUTATOR_PARTS_SYSTEM_PROMPT,
  MUTATOR_SYSTEM_PROMPT,
  PROMPT_LABEL,
} from '../../../src/loop/mutator-prompt.js';
import { unfenceAll } from '../../../src/protocol/delimit.js';
import { extractFeedbackBlock } from '../../../src/protocol/mutation.js';
import { feedbackInput, sample, trainCase } from './feedback-fixtures.js';

const SYSTEM = 'You answer billing questions. Reply in JSON.\n';
const USER = 'Customer {{name}} asks: {{question}}. Mention the refund policy.\n';
const shape: PromptShape = {
  parts: [
    { name: 'system', role: 'system', text: SYSTEM, path: '/s.md', optimise: true },
    { name: 'messages[0]', role: 'user', text: 'Tier: {{tier}}', optimise: false },
    { name: 'messages[1]', role: 'user', text: USER, path: '/u.md', optimise: true },
  ],
};
const prompt = joinPartTexts({ system: SYSTEM, 'messages[1]': USER });

function failing(checks: { name: string; type: string }[]) {
  return trainCase('bad', 0.2, {
    samples: [sample({ checks: checks.map((c) => ({ ...c, pass: false, reason: 'missing' })) })],
  });
}

describe('the mutator request for several parts', () => {
  const attribute = checkAttributor(
    [
      { type: 'icontains', value: 'refund policy' },
      { type: 'not-contains', value: 'billing' },
      { type: 'icontains', value: 'sorry' },
      { type: 'regex', value: '^Dear' },
    ],
    { system: SYSTEM, 'messages[1]': USER },
  );
  const parts = partsContextOf(shape);
  const feedback = buildMutatorFeedback(
    feedbackInput({
      incumbent: { prompt, score: { total: 0.5, checks: 0.5 }, criteria: {} },
      ...(parts ? { parts } : {}),
      attribute,
      trainCases: [
        failing([
          { name: 'icontains: refund policy', type: 'icontains' },
          { name: 'not-contains: billing', type: 'not-contains' },
          { name: 'icontains: sorry', type: 'icontains' },
          { name: 'regex: ^Dear', type: 'regex' },
          { name: 'output-schema', type: 'is-json' },
        ]),
      ],
    }),
  );

  it('lists each optimisable part with its own placeholders, keep blocks and length limit', () => {
    expect(feedback.incumbent.part).toBeUndefined();
    expect(feedback.incumbent.prompt).toBe(prompt);
    expect(feedback.incumbent.parts).toEqual([
      {
        name: 'system',
        role: 'system',
        text: SYSTEM,
        chars: 45,
        placeholders: [],
        keep_blocks: [],
        max_chars: 67,
      },
      {
        name: 'messages[1]',
        role: 'user',
        text: USER,
        chars: 65,
        placeholders: ['name', 'question'],
        keep_blocks: [],
        max_chars: 97,
      },
    ]);
    expect(feedback.fixed_parts).toEqual([{ name: 'messages[0]', role: 'user', text: 'Tier: {{tier}}' }]);
  });

  it('attributes a failure to the one part holding its words, else says unknown', () => {
    const checks = feedback.failing_cases[0]?.failed_checks.map((c) => [c.name, c.part]);
    expect(checks).toEqual([
      ['icontains: refund policy', 'messages[1]'],
      ['not-contains: billing', 'system'],
      ['icontains: sorry', 'unknown'],
      ['regex: ^Dear', 'unknown'],
      ['output-schema', 'system'],
    ]);
    expect(feedback.check_failures.every((c) => c.part !== undefined)).toBe(true);
  });

  it('shows each part fenced by name and asks for edits, in the prose and on every retry', () => {
    const request = buildMutatorRequest(feedback, [{ reply: '{}', problem: 'no part' }]);
    expect(request.system).toBe(MUTATOR_PARTS_SYSTEM_PROMPT);
    expect(request.system).toContain('"edits": {"<part name>"');
    const user = request.messages[0]?.content ?? '';
    expect(extractFeedbackBlock(user)).toEqual(feedback);
    expect(user).toContain('## Current prompt: 2 parts you may change, in request order');
    expect(user).toContain('### system (yours, system, 45 characters)');
    expect(user).toContain('### messages[1] (yours, user, 65 characters)');
    expect(unfenceAll(PROMPT_LABEL, user)).toEqual([SYSTEM, USER]);
    expect(user).toContain('system (yours), messages[0], messages[1] (yours)');
    expect(user).toContain('- `messages[1]`: keep {{name}}, {{question}}; at most 97 characters (now 65).');
    expect(user).toContain(
      '- icontains: refund policy (icontains): missing (most likely from part `messages[1]`)',
    );
    expect(user).toContain('- icontains: sorry (icontains): missing (part: unknown)');
    expect(request.messages[2]?.content).toContain('"edits"');
  });

  it('leaves a one-part request exactly as before', () => {
    const one = buildMutatorFeedback(feedbackInput());
    expect(one.incumbent.parts).toBeUndefined();
    expect(one.failing_cases.flatMap((c) => c.failed_checks).some((c) => 'part' in c)).toBe(false);
    expect(buildMutatorRequest(one).system).toBe(MUTATOR_SYSTEM_PROMPT);
  });
});
