import type { BuildFeedbackInput, CaseResult, SampleResult } from '../../../src/loop/build-feedback.js';

export const INCUMBENT_PROMPT = [
  'Write a cold email about {{topic}} for {{ audience }}.',
  '<!-- keep -->Sign it as "The Team".<!-- /keep -->',
  'Start with "Subject:".',
].join('\n');

export function sample(overrides: Partial<SampleResult> = {}): SampleResult {
  return {
    output: 'Subject: hello\nA fine email.',
    checks: [
      { name: 'starts-with', type: 'starts-with', pass: true, reason: 'ok' },
      { name: 'short', type: 'word-count', pass: true, reason: '40 words' },
    ],
    judge: { criteria: { clarity: 4, specificity: 4 }, reasoning: 'Clear enough.' },
    expectations: [],
    ...overrides,
  };
}

export function trainCase(id: string, score: number, overrides: Partial<CaseResult> = {}): CaseResult {
  return {
    id,
    split: 'train',
    vars: { topic: `topic of ${id}`, audience: 'CTO' },
    score,
    samples: [sample()],
    ...overrides,
  };
}

export function feedbackInput(overrides: Partial<BuildFeedbackInput> = {}): BuildFeedbackInput {
  return {
    incumbent: {
      prompt: INCUMBENT_PROMPT,
      score: { total: 0.61, checks: 0.7, judge: 0.55 },
      criteria: { clarity: 3.2, specificity: 2.8 },
    },
    trainCases: [
      trainCase('good', 1),
      trainCase('too-long', 0.4, {
        samples: [
          sample({
            output: `Subject: billing\n${'word '.repeat(300)}`,
            checks: [
              { name: 'starts-with', type: 'starts-with', pass: true, reason: 'ok' },
              { name: 'short', type: 'word-count', pass: false, reason: '302 words, max 150' },
            ],
            judge: { criteria: { clarity: 2, specificity: 3 }, reasoning: 'Rambles for paragraphs.' },
            expectations: [{ text: 'Names one concrete pain', passed: false, evidence: 'no pain is named' }],
          }),
        ],
      }),
      trainCase('meh', 0.8),
    ],
    history: [],
    guidance: 'Keep it friendly.',
    strategy: 'focused',
    maxGrowth: 1.5,
    ...overrides,
  };
}
