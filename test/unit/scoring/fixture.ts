import type { CheckOutcome } from '../../../src/checks/check-result.js';
import { Evaluation } from '../../../src/scoring/types.js';

export function outcome(
  name: string,
  score: number,
  options: { gate?: boolean; weight?: number } = {},
): CheckOutcome {
  return {
    name,
    type: 'javascript',
    weight: options.weight ?? 1,
    gate: options.gate ?? false,
    pass: score >= 0.5,
    score,
    reason: `scored ${score}`,
  };
}

const A = (score: number) => outcome('A', score, { gate: true });
const B = (score: number) => outcome('B', score, { weight: 3 });
const declared = [
  { name: 'A', weight: 1, gate: true },
  { name: 'B', weight: 3, gate: false },
];

/**
 * Two train cases and one holdout case, two samples each; t2's second generation failed.
 * Hand-computed scores are in score-split.test.ts.
 */
export function sampleEvaluation(): Evaluation {
  return Evaluation.parse({
    samples: 2,
    cases: [
      { id: 't1', split: 'train', checks: declared, expectations: ['e1', 'e2'] },
      { id: 't2', split: 'train', checks: declared, expectations: [] },
      { id: 'h1', split: 'holdout', checks: declared, expectations: ['e1'] },
    ],
    outputs: [
      { caseId: 't1', sample: 0, ok: true, text: 'a' },
      { caseId: 't1', sample: 1, ok: true, text: 'b' },
      { caseId: 't2', sample: 0, ok: true, text: 'c' },
      { caseId: 't2', sample: 1, ok: false, text: '', error: 'HTTP 500' },
      { caseId: 'h1', sample: 0, ok: true, text: 'd' },
      { caseId: 'h1', sample: 1, ok: true, text: 'e' },
    ],
    checks: [
      { caseId: 't1', sample: 0, outcomes: [A(1), B(0.5)] },
      { caseId: 't1', sample: 1, outcomes: [A(1), B(1)] },
      { caseId: 't2', sample: 0, outcomes: [A(1), B(0)] },
      { caseId: 't2', sample: 1, outcomes: [A(0), B(0)] },
      { caseId: 'h1', sample: 0, outcomes: [A(1), B(1)] },
      { caseId: 'h1', sample: 1, outcomes: [A(0), B(1)] },
    ],
    judge: {
      criteria: [
        { key: 'clarity', weight: 2 },
        { key: 'tone', weight: 1 },
      ],
      scores: [
        { caseId: 't1', sample: 0, criteria: { clarity: 5, tone: 3 }, reasoning: 'r' },
        { caseId: 't1', sample: 1, criteria: { clarity: 3, tone: 3 }, reasoning: 'r' },
        { caseId: 't2', sample: 0, criteria: { clarity: 1, tone: 5 }, reasoning: 'r' },
        { caseId: 'h1', sample: 0, criteria: { clarity: 4, tone: 4 }, reasoning: 'r' },
        { caseId: 'h1', sample: 1, criteria: { clarity: 2, tone: 2 }, reasoning: 'r' },
      ],
    },
    gradings: [
      {
        caseId: 't1',
        expectations: [
          { text: 'e1', passed: true, evidence: 'quoted' },
          { text: 'e2', passed: true, evidence: 'not in output', flagged: true },
        ],
      },
      { caseId: 'h1', sample: 0, expectations: [{ text: 'e1', passed: true, evidence: 'q' }] },
      { caseId: 'h1', sample: 1, expectations: [{ text: 'e1', passed: false, evidence: '' }] },
    ],
    weights: { checks: 0.4, judge: 0.4, expectations: 0.2 },
  });
}
