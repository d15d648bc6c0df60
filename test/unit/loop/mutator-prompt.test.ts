import { describe, expect, it } from 'vitest';
import { unfenceAll } from '../../../src/protocol/delimit.js';
import { extractFeedbackBlock } from '../../../src/protocol/mutation.js';
import { buildMutatorFeedback, partsContextOf } from '../../../src/loop/build-feedback.js';
import type { PromptShape } from '../../../src/experiment/types.js';
import {
  buildMutatorRequest,
  buildMutatorUserMessage,
  FIXED_PART_LABEL,
  MUTATOR_SYSTEM_PROMPT,
  OUTPUT_LABEL,
  PROMPT_LABEL,
} from '../../../src/loop/mutator-prompt.js';
import { feedbackInput, INCUMBENT_PROMPT, sample, trainCase } from './feedback-fixtures.js';

describe('buildMutatorRequest', () => {
  const history = [
    { iteration: 1, status: 'discard', trainScore: 0.58, hypothesis: 'Adding examples lifts specificity.' },
    {
      iteration: 2,
      status: 'keep',
      trainScore: 0.61,
      hypothesis: 'A word limit fixes the word-count check.',
    },
  ];
  const feedback = buildMutatorFeedback(feedbackInput({ history }));
  const request = buildMutatorRequest(feedback);
  const user = request.messages[0]?.content ?? '';

  it('carries the same feedback as the fenced machine-readable block', () => {
    expect(request.messages).toHaveLength(1);
    expect(request.messages[0]?.role).toBe('user');
    expect(extractFeedbackBlock(user)).toEqual(feedback);
  });

  it('fences the incumbent prompt and the output excerpts as data', () => {
    expect(unfenceAll(PROMPT_LABEL, user)).toEqual([INCUMBENT_PROMPT]);
    expect(unfenceAll(OUTPUT_LABEL, user)).toHaveLength(feedback.failing_cases.length);
  });

  it('states scores by signal and criterion, failing cases, attempts and guidance', () => {
    expect(user).toContain('- total: 0.610');
    expect(user).toContain('- judge: 0.550');
    expect(user).toContain('- specificity: 2.80');
    expect(user.indexOf('- specificity: 2.80')).toBeLessThan(user.indexOf('- clarity: 3.20'));
    expect(user).toContain('### Case too-long: score 0.400');
    expect(user).toContain('short (word-count): 302 words, max 150');
    expect(user).toContain('Rambles for paragraphs.');
    expect(user).toContain('"Names one concrete pain": "no pain is named"');
    expect(user).toContain('short (word-count): failed 1 of 3');
    expect(user).toContain('iteration 2, keep, 0.610: "A word limit fixes the word-count check."');
    expect(user.indexOf('iteration 2, keep')).toBeLessThan(user.indexOf('iteration 1, discard'));
    expect(user).toContain('> Keep it friendly.');
  });

  it('states the constraints and the reply format', () => {
    expect(user).toContain('Keep every placeholder: {{topic}}, {{audience}}. Add no new placeholder.');
    expect(user).toContain(
      'Copy the 1 <!-- keep --> block of the current prompt unchanged, markers included.',
    );
    expect(user).toContain(`At most ${feedback.max_chars} characters`);
    expect(user).toContain('Change one thing.');
    expect(user).toContain('state your hypothesis');
    expect(user).toContain('{"hypothesis": "<one or two sentences>", "prompt": "<the complete new prompt>"}');
    expect(request.system).toBe(MUTATOR_SYSTEM_PROMPT);
    expect(request.system).toContain('one JSON object');
    expect(request.system).toContain('<!-- keep -->');
  });

  it('asks for a bolder change in the bold mode, named `mode` and (for older readers) `strategy`', () => {
    const bold = buildMutatorUserMessage(buildMutatorFeedback(feedbackInput({ strategy: 'bold' })));
    expect(bold).toContain('Mode for this round: bold (the last attempts were all rejected');
    expect(bold).toContain('"strategy": "bold"');
    expect(bold).toContain('"mode": "bold"');
    expect(bold).toContain('make one bolder change');
    expect(bold).toContain('restructure');
    expect(bold).toContain('one coherent idea');
    expect(user).toContain('Make one focused change');
    expect(user).not.toContain('bolder');
  });

  it('keeps the block findable when an excerpt holds an unclosed ```json fence', () => {
    const c = trainCase('fenced', 0.1, { samples: [sample({ output: 'Here:\n```json\n{"a": 1, "b": [' })] });
    const tricky = buildMutatorFeedback(feedbackInput({ trainCases: [c] }));
    expect(extractFeedbackBlock(buildMutatorUserMessage(tricky))).toEqual(tricky);
  });

  it('appends rejected replies and what was wrong, for a retry', () => {
    const retry = buildMutatorRequest(feedback, [
      { reply: '{"prompt": "x"}', problem: 'your prompt dropped {{topic}}' },
    ]);
    expect(retry.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(retry.messages[1]?.content).toBe('{"prompt": "x"}');
    expect(retry.messages[2]?.content).toContain('your prompt dropped {{topic}}');
  });

  it('is deterministic (stable cache keys)', () => {
    expect(buildMutatorRequest(buildMutatorFeedback(feedbackInput({ history })))).toEqual(request);
  });

  it('says so when there are no attempts, failing cases or guidance yet', () => {
    const fresh = buildMutatorUserMessage(
      buildMutatorFeedback(feedbackInput({ trainCases: [trainCase('ok', 1)], guidance: '' })),
    );
    expect(fresh).toContain('None yet');
    expect(fresh).toContain('Every training case scored the maximum.');
    expect(fresh).not.toContain('standing guidance');
  });
});

describe('the mutator request for prompt parts (docs/design/prompt-shapes.md)', () => {
  const shape: PromptShape = {
    parts: [
      { name: 'system', role: 'system', text: INCUMBENT_PROMPT, path: '/s.md', optimise: true },
      { name: 'messages[0]', role: 'user', text: 'Customer tier: {{tier}}', optimise: false },
    ],
  };

  it('names the part being changed and shows the fixed parts, read-only, in the prose and the block', () => {
    const parts = partsContextOf(shape);
    expect(parts).toEqual({
      optimised: [{ name: 'system', role: 'system' }],
      fixed: [{ name: 'messages[0]', role: 'user', text: 'Customer tier: {{tier}}' }],
    });
    const feedback = buildMutatorFeedback({ ...feedbackInput(), ...(parts ? { parts } : {}) });
    const user = buildMutatorUserMessage(feedback);
    expect(extractFeedbackBlock(user)).toMatchObject({
      incumbent: { part: 'system' },
      fixed_parts: [{ name: 'messages[0]', role: 'user', text: 'Customer tier: {{tier}}' }],
    });
    expect(user).toContain('## Current prompt: part `system`, the one you are changing');
    expect(user).toContain(
      "Sent in this order, with each case's own messages after them: system (yours), messages[0].",
    );
    expect(unfenceAll(FIXED_PART_LABEL, user)).toEqual(['Customer tier: {{tier}}']);
    expect(unfenceAll(PROMPT_LABEL, user)).toEqual([INCUMBENT_PROMPT]);
  });

  it('leaves a path prompt request as it was', () => {
    const path: PromptShape = {
      parts: [{ name: 'prompt', role: 'user', text: INCUMBENT_PROMPT, path: '/p.md', optimise: true }],
    };
    expect(partsContextOf(path)).toBeUndefined();
    const feedback = buildMutatorFeedback(feedbackInput());
    expect(feedback).not.toHaveProperty('fixed_parts');
    expect(feedback.incumbent).not.toHaveProperty('part');
    expect(buildMutatorUserMessage(feedback)).toContain(
      `## Current prompt (${feedback.incumbent.chars} characters)`,
    );
  });
});
