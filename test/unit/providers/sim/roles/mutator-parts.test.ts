/**
 * The simulated mutator on a prompt with several optimisable parts (docs/design/prompt-shapes.md):
 * it replies with `edits` changing one part, within that part's own rules, and goes for the part
 * the most common failure is attributed to.
 */
import { describe, expect, test } from 'vitest';
import { joinPartTexts } from '../../../../../src/experiment/part-texts.js';
import { buildMutatorFeedback, partsContextOf } from '../../../../../src/loop/build-feedback.js';
import { checkAttributor } from '../../../../../src/loop/attribute-failure.js';
import { parseProposal } from '../../../../../src/loop/parse-proposal.js';
import { MutatorEditsReply } from '../../../../../src/protocol/mutation.js';
import { createRng } from '../../../../../src/providers/sim/prng.js';
import { proposePartsMutation } from '../../../../../src/providers/sim/roles/mutator-parts.js';
import type { PromptShape } from '../../../../../src/experiment/types.js';

const SYSTEM = 'You write short notes for the customers of a bakery.\n';
const USER = 'Write the note for {{name}}.\n';
const shape: PromptShape = {
  parts: [
    { name: 'system', role: 'system', text: SYSTEM, path: '/s.md', optimise: true },
    { name: 'messages[0]', role: 'user', text: USER, path: '/u.md', optimise: true },
  ],
};
const prompt = joinPartTexts({ system: SYSTEM, 'messages[0]': USER });
const options = {
  incumbent: prompt,
  triedHashes: new Set<string>(),
  maxGrowth: 2,
  parts: { optimised: ['system', 'messages[0]'], fixed: [], placeholders: ['name'] },
};

function feedbackFor(failing: string) {
  const parts = partsContextOf(shape);
  return buildMutatorFeedback({
    incumbent: { prompt, score: { total: 0.3, checks: 0.3 }, criteria: {} },
    ...(parts ? { parts } : {}),
    attribute: checkAttributor([{ type: 'icontains', value: failing }], {
      system: SYSTEM,
      'messages[0]': USER,
    }),
    trainCases: ['a', 'b'].map((id) => ({
      id,
      split: 'train' as const,
      vars: { name: id },
      score: 0.3,
      samples: [
        {
          output: 'A note.',
          checks: [{ name: `icontains: ${failing}`, type: 'icontains', pass: false, reason: 'missing' }],
          judge: null,
          expectations: [],
        },
      ],
    })),
    history: [],
    guidance: '',
    strategy: 'focused',
    maxGrowth: 2,
  });
}

describe('the sim mutator with several parts', () => {
  test('replies with edits of one part that the loop accepts', () => {
    const feedback = feedbackFor('bakery');
    for (let seed = 0; seed < 40; seed++) {
      const reply = MutatorEditsReply.parse(proposePartsMutation(feedback, createRng(seed)));
      expect(Object.keys(reply.edits)).toHaveLength(1);
      const parsed = parseProposal(JSON.stringify(reply), options);
      expect(parsed.ok, JSON.stringify(parsed)).toBe(true);
    }
  });

  test('edits the part a failing check is attributed to, unless it makes a useless tweak', () => {
    const toUser = Array.from({ length: 40 }, (_, seed) =>
      Object.keys(proposePartsMutation(feedbackFor('note for'), createRng(seed)).edits),
    );
    const toSystem = Array.from({ length: 40 }, (_, seed) =>
      Object.keys(proposePartsMutation(feedbackFor('bakery'), createRng(seed)).edits),
    );
    expect(toUser.filter(([part]) => part === 'messages[0]').length).toBeGreaterThan(25);
    expect(toSystem.filter(([part]) => part === 'system').length).toBeGreaterThan(25);
  });
});
