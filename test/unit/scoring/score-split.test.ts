import { describe, expect, it } from 'vitest';
import { scoreSplit } from '../../../src/scoring/score-split.js';
import { SplitScore } from '../../../src/scoring/types.js';
import { sampleEvaluation } from './fixture.js';

describe('scoreSplit', () => {
  it('scores train by hand-computed signals', () => {
    const score = scoreSplit(sampleEvaluation(), 'train');
    const checks = 7.5 / 16;
    const judge = (5 / 6 + 1 / 2 + 1 / 3) / 4;
    const expectations = 0.5;
    expect(score.checks).toBeCloseTo(checks, 12);
    expect(score.judge).toBeCloseTo(judge, 12);
    expect(score.expectations).toBeCloseTo(expectations, 12);
    expect(score.total).toBeCloseTo(0.4 * checks + 0.4 * judge + 0.2 * expectations, 12);
    expect(score.criteria).toEqual({ clarity: 2.5, tone: 3 });
    expect(score.gateFailed).toBe(true);
    expect(score.gateFailures).toEqual([
      { caseId: 't2', sample: 1, check: 'A', reason: 'generation failed' },
    ]);
    expect(SplitScore.parse(score)).toEqual(score);
  });

  it('gives per-case totals, renormalised over the signals each case has', () => {
    const [t1, t2] = scoreSplit(sampleEvaluation(), 'train').cases;
    expect(t1).toMatchObject({ caseId: 't1', split: 'train', expectations: 0.5 });
    expect(t1?.total).toBeCloseTo(0.4 * (6.5 / 8) + 0.4 * (2 / 3) + 0.2 * 0.5, 12);
    expect(t2?.expectations).toBeUndefined();
    expect(t2?.total).toBeCloseTo(0.5 * (1 / 8) + 0.5 * (1 / 6), 12);
  });

  it('scores holdout the same way', () => {
    const score = scoreSplit(sampleEvaluation(), 'holdout');
    expect(score).toMatchObject({ split: 'holdout', checks: 7 / 8, judge: 0.5, expectations: 0.5 });
    expect(score.total).toBeCloseTo(0.4 * 0.875 + 0.4 * 0.5 + 0.2 * 0.5, 12);
    expect(score.gateFailures).toEqual([{ caseId: 'h1', sample: 1, check: 'A', reason: 'scored 0' }]);
    expect(score.cases.map((c) => c.caseId)).toEqual(['h1']);
  });

  it('scores all cases together', () => {
    const score = scoreSplit(sampleEvaluation(), 'all');
    expect(score.checks).toBeCloseTo(14.5 / 24, 12);
    expect(score.expectations).toBeCloseTo(3 / 6, 12);
    expect(score.gateFailures).toHaveLength(2);
    expect(score.cases).toHaveLength(3);
  });

  it('scores a sealed test case on its own split and leaves it out of all (the gates the loop reads)', () => {
    const evaluation = sampleEvaluation();
    evaluation.cases = evaluation.cases.map((c) => (c.id === 'h1' ? { ...c, split: 'test' as const } : c));
    const test = scoreSplit(evaluation, 'test');
    const asHoldout = scoreSplit(sampleEvaluation(), 'holdout');
    expect(test).toEqual({ ...asHoldout, split: 'test', cases: [{ ...asHoldout.cases[0], split: 'test' }] });
    const all = scoreSplit(evaluation, 'all');
    expect(all.cases.map((c) => c.caseId)).toEqual(['t1', 't2']);
    expect(all.gateFailures).toEqual([{ caseId: 't2', sample: 1, check: 'A', reason: 'generation failed' }]);
    expect(all.total).toBe(scoreSplit(evaluation, 'train').total);
  });

  it('drops the judge without a rubric and renormalises', () => {
    const evaluation = sampleEvaluation();
    delete evaluation.judge;
    const score = scoreSplit(evaluation, 'train');
    expect(score.judge).toBeUndefined();
    expect(score.criteria).toEqual({});
    expect(score.total).toBeCloseTo((0.4 * (7.5 / 16) + 0.2 * 0.5) / 0.6, 12);
  });

  it('has a null total for an empty holdout', () => {
    const evaluation = sampleEvaluation();
    evaluation.cases = evaluation.cases.filter((c) => c.split === 'train');
    expect(scoreSplit(evaluation, 'holdout')).toEqual({
      split: 'holdout',
      total: null,
      gateFailed: false,
      gateFailures: [],
      criteria: {},
      cases: [],
    });
  });
});
