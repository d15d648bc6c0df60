import { describe, expect, test } from 'vitest';
import { extractKeepBlocks, findPlaceholders } from '../../../../../src/experiment/template.js';
import {
  formatFeedbackBlock,
  MUTATOR_FEEDBACK_FORMAT,
  type MutatorFeedback,
  MutatorReply,
} from '../../../../../src/protocol/mutation.js';
import { parseInstructions } from '../../../../../src/providers/sim/instructions.js';
import { createRng } from '../../../../../src/providers/sim/prng.js';
import { proposeMutation, TWEAK_PROBABILITY } from '../../../../../src/providers/sim/roles/mutator.js';
import { simulateCompletion } from '../../../../../src/providers/sim/simulate.js';

const PROMPT = [
  'Write a cold email about {{topic}} for {{ audience }}.',
  '<!-- keep -->',
  'Sign as Dana from Acme.',
  '<!-- /keep -->',
  'Keep the tone friendly.',
].join('\n');

function feedback(overrides: Partial<MutatorFeedback> = {}, prompt = PROMPT): MutatorFeedback {
  return {
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
    max_chars: Math.floor(prompt.length * 1.5),
    failing_cases: [
      {
        case_id: 'saas-cto',
        vars: { topic: 'Usage-based billing', audience: 'CTO at a 50-person SaaS' },
        score: 0.3,
        output_excerpt: 'Hello, I hope this email finds you well…',
        failed_checks: [
          { name: 'word-count', type: 'word-count', reason: '212 words, more than the maximum of 150' },
          { name: 'no-jargon', type: 'not-icontains-any', reason: 'contains "synergy"' },
        ],
        judge: null,
        failed_expectations: [],
      },
    ],
    check_failures: [
      { name: 'no-jargon', type: 'not-icontains-any', failed: 2, total: 8 },
      { name: 'word-count', type: 'word-count', failed: 6, total: 8 },
    ],
    history: [],
    guidance: '',
    ...overrides,
  };
}

const isTweak = (reply: MutatorReply): boolean =>
  reply.hypothesis.startsWith('Dropping the line') || /^Adding "(?!Under|No jargon)/.test(reply.hypothesis);

function proposals(input: MutatorFeedback, count = 100): MutatorReply[] {
  return Array.from({ length: count }, (_, seed) =>
    MutatorReply.parse(proposeMutation(input, createRng(seed))),
  );
}

describe('the simulated mutator', () => {
  test('every reply is valid: placeholders and keep blocks kept, within max_chars, not the incumbent', () => {
    for (const strategy of ['focused', 'bold'] as const) {
      const input = feedback({ strategy });
      for (const reply of proposals(input)) {
        expect(new Set(findPlaceholders(reply.prompt))).toEqual(new Set(['topic', 'audience']));
        expect(reply.prompt).toContain('<!-- keep -->\nSign as Dana from Acme.\n<!-- /keep -->');
        expect(reply.prompt.length).toBeLessThanOrEqual(input.max_chars);
        expect(reply.prompt).not.toBe(PROMPT);
        expect(reply.hypothesis).toMatch(/ will /);
      }
    }
  });

  test('aims at the most common failing check with a falsifiable hypothesis', () => {
    const replies = proposals(feedback());
    const aimed = replies.filter((r) => r.hypothesis.includes('word-count check'));
    expect(aimed.length / replies.length).toBeGreaterThan(0.45);
    for (const reply of aimed) {
      expect(reply.hypothesis).toMatch(
        /^Adding an explicit \d+-word limit will .*\(6 of 8 outputs fail it now\)/,
      );
      expect(parseInstructions(reply.prompt).maxWords?.value).toBeLessThan(150);
    }
  });

  test('bans the exact words a failing check names', () => {
    const input = feedback({
      check_failures: [
        { name: 'not-icontains-any [synergy, leverage]', type: 'not-icontains-any', failed: 5, total: 8 },
      ],
    });
    const fix = proposals(input).find((r) => r.hypothesis.startsWith('Banning'));
    expect(parseInstructions(fix?.prompt ?? '').avoid?.value).toEqual(['synergy', 'leverage']);
  });

  test('makes about one proposal in five a useless or harmful tweak', () => {
    const replies = proposals(feedback(), 300);
    const share = replies.filter(isTweak).length / replies.length;
    expect(share).toBeGreaterThan(TWEAK_PROBABILITY - 0.07);
    expect(share).toBeLessThan(TWEAK_PROBABILITY + 0.07);
  });

  test('restates an instruction the prompt already has as a hard rule instead of repeating it', () => {
    const prompt = 'Write a cold email about {{topic}}.\nKeep it under 120 words.';
    const input = feedback(
      { check_failures: [{ name: 'word-count', type: 'word-count', failed: 3, total: 8 }] },
      prompt,
    );
    const fix = proposals(input).find((r) => !isTweak(r));
    expect(fix?.hypothesis).toMatch(/^Restating the length limit as a hard rule/);
    expect(parseInstructions(fix?.prompt ?? '').maxWords?.firm).toBe(true);
    expect(fix?.prompt.match(/words/g)?.length).toBe(1);
  });

  test('does not repeat a hypothesis from the history', () => {
    const history = [
      {
        iteration: 1,
        status: 'discard',
        score: 0.4,
        hypothesis: 'Adding an explicit 110-word limit will help.',
      },
      {
        iteration: 2,
        status: 'discard',
        score: 0.4,
        hypothesis: 'Adding an explicit 120-word limit will help.',
      },
    ];
    for (const reply of proposals(feedback({ history })))
      expect(reply.hypothesis).not.toMatch(/^Adding an explicit/);
  });

  test('does not repeat a hypothesis tried elsewhere in the run, or the same words in another order', () => {
    const input = feedback({
      check_failures: [
        { name: 'not-icontains-any [synergy, leverage]', type: 'not-icontains-any', failed: 5, total: 8 },
      ],
    });
    const banned = proposals(input).filter((r) => r.hypothesis.startsWith('Banning'));
    expect(banned.length).toBeGreaterThan(0);
    // Another lineage tried it, listed in `tried`, cut short as the feedback cuts long ones.
    for (const reply of proposals({ ...input, tried: ['Banning synergy, leverage by name will make…'] }))
      expect(reply.hypothesis).not.toMatch(/^Banning/);
    // This lineage tried it with the words in the other order.
    const history = [
      {
        iteration: 3,
        status: 'inconclusive',
        score: 0.5,
        hypothesis: 'Banning leverage, synergy by name will help.',
      },
    ];
    for (const reply of proposals({ ...input, history })) expect(reply.hypothesis).not.toMatch(/^Banning/);
  });

  test('targets the weakest judge criterion when no check fails', () => {
    const input = feedback({
      check_failures: [],
      failing_cases: [],
      incumbent: { ...feedback().incumbent, criteria: { call_to_action: 1.8, tone: 3.6, clarity: 4.4 } },
    });
    const fix = proposals(input).find((r) => !isTweak(r) && r.hypothesis.includes('call_to_action'));
    expect(parseInstructions(fix?.prompt ?? '').endQuestion?.value).toBe(true);
    expect(fix?.hypothesis).toContain('above 1.8');
  });

  test('turns a failed expectation into a general instruction using placeholders', () => {
    const base = feedback();
    const input = feedback({
      check_failures: [],
      failing_cases: [
        {
          ...(base.failing_cases[0] as MutatorFeedback['failing_cases'][number]),
          failed_checks: [],
          failed_expectations: [
            { text: 'Names one concrete pain of usage-based billing', evidence: 'not found' },
          ],
        },
      ],
    });
    const fix = proposals(input).find((r) => !isTweak(r));
    expect(fix?.prompt).toContain('Mention one concrete pain of {{topic}}.');
  });

  test('in bold strategy regroups the instructions as firm rules', () => {
    const prompt = 'Write a cold email about {{topic}}.\nKeep it under 120 words.\nEnd with a question.';
    const input = { ...feedback({ strategy: 'bold' }, prompt), max_chars: 400 };
    const bold = proposals(input).filter((r) => r.hypothesis.startsWith('Regrouping'));
    expect(bold.length).toBeGreaterThan(65);
    for (const reply of bold) {
      const rules = parseInstructions(reply.prompt);
      expect(rules.maxWords?.firm).toBe(true);
      expect(rules.endQuestion?.firm).toBe(true);
      expect(reply.prompt).toMatch(/Follow these rules strictly:\n1\. |Important: /);
    }
  });

  test('stays within a tight max_chars or falls back to the incumbent', () => {
    const input = { ...feedback(), max_chars: PROMPT.length + 12 };
    for (const reply of proposals(input)) expect(reply.prompt.length).toBeLessThanOrEqual(input.max_chars);
  });

  test('draws from a stream of its starting prompt: a run begun after apply does not replay the proposals', () => {
    // The loop sends every run's mutator the same model and temperature, and the candidate's
    // number as the sample index, whatever `search.seed` is: the prompt, in the request, is what
    // tells two runs' streams apart. The same prompt replays exactly.
    const applied = `${PROMPT}\nKeep it under 120 words.`;
    const replies = (prompt: string) =>
      Array.from({ length: 12 }, (_, i) => {
        const message = `Improve the prompt.\n\n${formatFeedbackBlock(feedback({}, prompt))}`;
        const { text } = simulateCompletion({
          messages: [{ role: 'user', content: message }],
          sampleIndex: i % 2,
        });
        const json = /^```json\n([\s\S]*)\n```$/.exec(text)?.[1] ?? text;
        return MutatorReply.parse(JSON.parse(json)).hypothesis.split(' will ')[0];
      });
    const first = replies(PROMPT);
    expect(replies(PROMPT)).toEqual(first);
    const after = replies(applied);
    expect(after).not.toEqual(first);
  });

  test('through simulateCompletion, replies parse and are sometimes fenced', () => {
    const message = `Improve the prompt.\n\n${formatFeedbackBlock(feedback())}`;
    const texts = Array.from(
      { length: 30 },
      (_, i) =>
        simulateCompletion({ messages: [{ role: 'user', content: message }], sampleIndex: i, temperature: 1 })
          .text,
    );
    const fenced = texts.filter((t) => t.startsWith('```json\n') && t.endsWith('\n```'));
    expect(fenced.length).toBeGreaterThan(0);
    expect(fenced.length).toBeLessThan(texts.length);
    for (const text of texts) {
      const json = /^```json\n([\s\S]*)\n```$/.exec(text)?.[1] ?? text;
      expect(MutatorReply.safeParse(JSON.parse(json)).success).toBe(true);
    }
  });
});
