import { describe, expect, it } from 'vitest';
import { judgeSignal, normaliseCriteria } from '../../../src/scoring/judge-signal.js';
import { sampleEvaluation } from './fixture.js';

function trainInput() {
  const evaluation = sampleEvaluation();
  if (evaluation.judge === undefined) throw new Error('fixture has a judge');
  return {
    ...evaluation,
    judge: evaluation.judge,
    cases: evaluation.cases.filter((c) => c.split === 'train'),
  };
}

describe('normaliseCriteria', () => {
  const criteria = [
    { key: 'clarity', weight: 2 },
    { key: 'tone', weight: 1 },
  ];

  it('maps the weighted mean from 1..5 onto 0..1', () => {
    expect(normaliseCriteria({ clarity: 1, tone: 1 }, criteria)).toBe(0);
    expect(normaliseCriteria({ clarity: 5, tone: 5 }, criteria)).toBe(1);
    expect(normaliseCriteria({ clarity: 5, tone: 3 }, criteria)).toBeCloseTo((13 / 3 - 1) / 4, 12);
  });

  it('counts a missing criterion at the floor and all-zero weights equally', () => {
    expect(normaliseCriteria({ clarity: 5 }, criteria)).toBeCloseTo((11 / 3 - 1) / 4, 12);
    const unweighted = criteria.map((c) => ({ ...c, weight: 0 }));
    expect(normaliseCriteria({ clarity: 5, tone: 3 }, unweighted)).toBe(0.75);
  });
});

describe('judgeSignal', () => {
  it('averages the normalised weighted scores over outputs, failed generations at 0', () => {
    const signal = judgeSignal(trainInput());
    // t1: 5/6 and 1/2; t2: 1/3 and 0 (failed generation)
    expect(signal.value).toBeCloseTo((5 / 6 + 1 / 2 + 1 / 3 + 0) / 4, 12);
    expect(signal.perCase['t1']).toBeCloseTo(2 / 3, 12);
    expect(signal.perCase['t2']).toBeCloseTo(1 / 6, 12);
  });

  it('reports criterion averages on 1..5 with failed generations at 1', () => {
    expect(judgeSignal(trainInput()).criteria).toEqual({ clarity: 2.5, tone: 3 });
  });

  it('treats an output without a judge record, or a missing output, as the floor', () => {
    const input = trainInput();
    input.judge = { ...input.judge, scores: input.judge.scores.filter((s) => s.caseId !== 't2') };
    input.outputs = input.outputs.filter((o) => o.caseId !== 't1' || o.sample !== 1);
    expect(judgeSignal(input).value).toBeCloseTo(5 / 6 / 4, 12);
  });

  it('is absent without outputs in scope', () => {
    expect(judgeSignal({ ...trainInput(), cases: [] })).toEqual({
      value: undefined,
      perCase: {},
      criteria: {},
    });
  });
});
