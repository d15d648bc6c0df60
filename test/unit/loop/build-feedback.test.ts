import { describe, expect, it } from 'vitest';
import { MutatorFeedback } from '../../../src/protocol/mutation.js';
import {
  buildMutatorFeedback,
  HoldoutLeakError,
  maxCharsFor,
  TRIED_CHARS,
  TRIED_HYPOTHESES,
} from '../../../src/loop/build-feedback.js';
import { buildMutatorRequest } from '../../../src/loop/mutator-prompt.js';
import { feedbackInput, INCUMBENT_PROMPT, sample, trainCase } from './feedback-fixtures.js';

describe('buildMutatorFeedback', () => {
  it('builds a valid MutatorFeedback describing the incumbent', () => {
    const feedback = buildMutatorFeedback(feedbackInput());
    expect(MutatorFeedback.parse(feedback)).toEqual(feedback);
    expect(feedback.incumbent.placeholders).toEqual(['topic', 'audience']);
    expect(feedback.incumbent.keep_blocks).toEqual(['<!-- keep -->Sign it as "The Team".<!-- /keep -->']);
    expect(feedback.incumbent.chars).toBe(INCUMBENT_PROMPT.length);
    expect(feedback.max_chars).toBe(Math.floor(1.5 * INCUMBENT_PROMPT.length));
    expect(feedback.incumbent.score).toEqual({ total: 0.61, checks: 0.7, judge: 0.55 });
    expect(feedback.guidance).toBe('Keep it friendly.');
    expect(feedback.strategy).toBe('focused');
  });

  it('lists failing train cases worst first, capped, with their evidence', () => {
    const cases = [
      trainCase('a', 0.9),
      trainCase('b', 0.3),
      trainCase('c', 0.5),
      trainCase('d', 0.3),
      trainCase('e', 0.7),
      trainCase('perfect', 1),
    ];
    const feedback = buildMutatorFeedback(feedbackInput({ trainCases: cases, maxFailingCases: 4 }));
    expect(feedback.failing_cases.map((c) => c.case_id)).toEqual(['b', 'd', 'c', 'e']);

    const detailed = buildMutatorFeedback(feedbackInput()).failing_cases[0];
    expect(detailed?.case_id).toBe('too-long');
    expect(detailed?.failed_checks).toEqual([
      { name: 'short', type: 'word-count', reason: '302 words, max 150' },
    ]);
    expect(detailed?.judge).toEqual({
      criteria: { clarity: 2, specificity: 3 },
      reasoning: 'Rambles for paragraphs.',
    });
    expect(detailed?.failed_expectations).toEqual([
      { text: 'Names one concrete pain', evidence: 'no pain is named' },
    ]);
  });

  it('cuts output excerpts with an ellipsis', () => {
    const feedback = buildMutatorFeedback(feedbackInput({ excerptChars: 50 }));
    const excerpt = feedback.failing_cases[0]?.output_excerpt ?? '';
    expect(excerpt).toHaveLength(50);
    expect(excerpt.endsWith('…')).toBe(true);
    expect(excerpt.startsWith('Subject: billing')).toBe(true);
    const short = buildMutatorFeedback(feedbackInput()).failing_cases.find((c) => c.case_id === 'meh');
    expect(short?.output_excerpt).toBe('Subject: hello\nA fine email.');
  });

  it('picks the worst sample of a case and describes a failed generation', () => {
    const c = trainCase('multi', 0.2, {
      samples: [sample(), sample({ output: null, error: 'timeout after 60 s', judge: null })],
    });
    const [described] = buildMutatorFeedback(feedbackInput({ trainCases: [c] })).failing_cases;
    expect(described?.output_excerpt).toBe('[generation failed: timeout after 60 s]');
    expect(described?.judge).toBeNull();
  });

  it('counts check failures over every train output, most first', () => {
    const failing = (name: string, type: string) => ({ name, type, pass: false, reason: 'no' });
    const c1 = trainCase('x', 0.1, {
      samples: [
        sample({ checks: [failing('short', 'word-count'), failing('starts-with', 'starts-with')] }),
        sample({
          checks: [failing('short', 'word-count'), { ...failing('starts-with', 'starts-with'), pass: true }],
        }),
      ],
    });
    const c2 = trainCase('y', 0.5, { samples: [sample({ checks: [failing('short', 'word-count')] })] });
    const feedback = buildMutatorFeedback(feedbackInput({ trainCases: [c1, c2, trainCase('z', 1)] }));
    expect(feedback.check_failures).toEqual([
      { name: 'short', type: 'word-count', failed: 3, total: 4 },
      { name: 'starts-with', type: 'starts-with', failed: 1, total: 3 },
    ]);
  });

  it('keeps the most recent attempts, sorted best score first', () => {
    const history = Array.from({ length: 15 }, (_, i) => ({
      iteration: i + 1,
      status: i % 3 === 0 ? 'error' : 'discard',
      trainScore: i % 3 === 0 ? null : (i % 5) / 10,
      hypothesis: `h${i + 1}`,
    }));
    const feedback = buildMutatorFeedback(feedbackInput({ history, maxHistory: 12 }));
    expect(feedback.history).toHaveLength(12);
    expect(feedback.history.map((h) => h.iteration).sort((a, b) => a - b)[0]).toBe(4);
    const scores = feedback.history.map((h) => h.score);
    const numeric = scores.filter((s): s is number => s !== null);
    expect(numeric).toEqual([...numeric].sort((a, b) => b - a));
    expect(scores.slice(numeric.length).every((s) => s === null)).toBe(true);
  });

  it('lists the run’s older hypotheses the history leaves out, newest first, each once, bounded', () => {
    // Iterations 46–60 repeat rules 0–14; the history shows the newest twelve (rules 3–14).
    const history = Array.from({ length: 60 }, (_, i) => ({
      iteration: i + 1,
      status: 'discard',
      trainScore: 0.5,
      hypothesis: i === 0 ? `Adding x ${'y'.repeat(600)}` : `Adding rule ${i % 45}.`,
    }));
    const feedback = buildMutatorFeedback(
      feedbackInput({ history, maxHistory: 12, tried: history.map((h) => h.hypothesis) }),
    );
    const shown = new Set(feedback.history.map((h) => h.hypothesis));
    expect(feedback.tried).toHaveLength(TRIED_HYPOTHESES);
    expect(feedback.tried?.some((t) => shown.has(t))).toBe(false);
    expect(new Set(feedback.tried).size).toBe(TRIED_HYPOTHESES);
    expect(feedback.tried?.slice(0, 4)).toEqual([
      'Adding rule 2.',
      'Adding rule 1.',
      'Adding rule 0.',
      'Adding rule 44.',
    ]);
    expect(buildMutatorFeedback(feedbackInput({ history, tried: [] })).tried).toBeUndefined();
    const long = buildMutatorFeedback(feedbackInput({ history: [], tried: [history[0]?.hypothesis ?? ''] }));
    expect(long.tried?.[0]).toHaveLength(TRIED_CHARS);
  });

  it('throws when a holdout case is passed in, and nothing from it reaches the request', () => {
    const holdout = trainCase('HOLDOUT-CASE-7f3a', 0, {
      split: 'holdout',
      vars: { topic: 'MARKER-VAR-91c2', audience: 'MARKER-AUD-55e1' },
      samples: [sample({ output: 'MARKER-OUTPUT-0d4b' })],
    });
    const input = feedbackInput();
    expect(() => buildMutatorFeedback({ ...input, trainCases: [...input.trainCases, holdout] })).toThrow(
      HoldoutLeakError,
    );
    expect(() => buildMutatorFeedback({ ...input, trainCases: [holdout] })).toThrow(/HOLDOUT-CASE-7f3a/);

    // extra fields on the inputs (a holdout score) are not copied into the feedback
    const score = { total: 0.61, judge: 0.5, holdout: 'MARKER-HOLDOUT-SCORE' } as never;
    const feedback = buildMutatorFeedback({ ...input, incumbent: { ...input.incumbent, score } });
    const request = buildMutatorRequest(feedback);
    const text = request.system + request.messages.map((m) => m.content).join('\n');
    for (const marker of ['HOLDOUT-CASE', 'MARKER-']) expect(text).not.toContain(marker);
  });

  it('cuts long var values and hypotheses', () => {
    const c = trainCase('long', 0.2, { vars: { topic: 'x'.repeat(5000), audience: 'CTO' } });
    const feedback = buildMutatorFeedback(
      feedbackInput({
        trainCases: [c],
        excerptChars: 100,
        history: [{ iteration: 1, status: 'discard', trainScore: 0.5, hypothesis: 'y'.repeat(5000) }],
      }),
    );
    expect(feedback.failing_cases[0]?.vars['topic']).toHaveLength(100);
    expect(feedback.history[0]?.hypothesis.length).toBeLessThan(500);
  });

  it('computes max_chars from max_growth', () => {
    expect(maxCharsFor('abcd', 1.5)).toBe(6);
    expect(maxCharsFor('é👍', 2)).toBe(4);
  });
});
