import { describe, expect, it } from 'vitest';
import { trainCaseResults } from '../../../src/loop/case-results.js';
import type { Evaluation, SplitScore } from '../../../src/scoring/index.js';

const evaluation: Evaluation = {
  samples: 1,
  cases: [{ id: 'a', split: 'train', checks: [], expectations: [] }],
  outputs: [{ caseId: 'a', sample: 0, ok: true, text: 'Hello.' }],
  checks: [],
  judge: {
    criteria: [{ key: 'essentials', weight: 1 }],
    scores: [
      {
        caseId: 'a',
        sample: 0,
        criteria: { essentials: 2 },
        reasoning: 'Too thin.',
        items: {
          essentials: [
            { item: 'Has a subject line', met: false },
            { item: 'Names a concrete problem', met: true },
            { item: 'Ends with a question', met: false },
          ],
        },
      },
    ],
  },
  gradings: [],
  weights: { checks: 0.4, judge: 0.4, expectations: 0.2 },
};

const train: SplitScore = {
  split: 'train',
  total: 0.25,
  gateFailed: false,
  gateFailures: [],
  criteria: { essentials: 2 },
  cases: [{ caseId: 'a', split: 'train', total: 0.25 }],
};

describe('trainCaseResults', () => {
  it('tells the mutator which checklist items the output missed (docs/design/judge-reliability.md)', () => {
    const [result] = trainCaseResults(evaluation, train, new Map());
    expect(result?.samples[0]?.judge?.reasoning).toBe(
      'Too thin. Unmet checklist items: Has a subject line; Ends with a question.',
    );
  });
});
