import { describe, expect, it } from 'vitest';
import { checksSignal } from '../../../src/scoring/checks-signal.js';
import { outcome, sampleEvaluation } from './fixture.js';

const train = () => {
  const evaluation = sampleEvaluation();
  return { ...evaluation, cases: evaluation.cases.filter((c) => c.split === 'train') };
};

describe('checksSignal', () => {
  it('is the weighted mean over case × sample × check', () => {
    const signal = checksSignal(train());
    // (1 + 3·0.5) + (1 + 3·1) + (1 + 3·0) + (0 + 0) over 4 slots × weight 4
    expect(signal.value).toBeCloseTo(7.5 / 16, 12);
    expect(signal.perCase['t1']).toBeCloseTo(6.5 / 8, 12);
    expect(signal.perCase['t2']).toBeCloseTo(1 / 8, 12);
  });

  it('names every failed gate, including the one of a failed generation', () => {
    const signal = checksSignal(train());
    expect(signal.gateFailed).toBe(true);
    expect(signal.gateFailures).toEqual([
      { caseId: 't2', sample: 1, check: 'A', reason: 'generation failed' },
    ]);
  });

  it('has no gate failure when every gate check passed', () => {
    const evaluation = train();
    evaluation.cases = evaluation.cases.filter((c) => c.id === 't1');
    expect(checksSignal(evaluation)).toMatchObject({ gateFailed: false, gateFailures: [] });
  });

  it('never lets a missing outcome or output shrink the denominator', () => {
    const evaluation = train();
    evaluation.checks = evaluation.checks.filter((c) => !(c.caseId === 't1' && c.sample === 1));
    evaluation.outputs = evaluation.outputs.filter((o) => !(o.caseId === 't2' && o.sample === 0));
    const signal = checksSignal(evaluation);
    // t1 s1 and t2 s0 now score 0 but keep their weight: (1 + 1.5) / 16
    expect(signal.value).toBeCloseTo(2.5 / 16, 12);
    expect(signal.gateFailures.map((f) => [f.caseId, f.sample, f.reason])).toEqual([
      ['t1', 1, 'no result for this check'],
      ['t2', 0, 'generation failed'],
      ['t2', 1, 'generation failed'],
    ]);
  });

  it('scores a failed generation 0 whatever outcomes were recorded for it', () => {
    const evaluation = train();
    evaluation.checks = evaluation.checks.map((c) =>
      c.caseId === 't2' && c.sample === 1
        ? { ...c, outcomes: [outcome('A', 1, { gate: true }), outcome('B', 1, { weight: 3 })] }
        : c,
    );
    expect(checksSignal(evaluation).value).toBeCloseTo(7.5 / 16, 12);
  });

  it('is absent when no case has a weighted check', () => {
    const evaluation = train();
    evaluation.cases = evaluation.cases.map((c) => ({ ...c, checks: [] }));
    expect(checksSignal(evaluation)).toMatchObject({ value: undefined, perCase: {}, gateFailed: false });
    evaluation.cases = evaluation.cases.map((c) => ({
      ...c,
      checks: [{ name: 'G', weight: 0, gate: true }],
    }));
    // A zero-weight gate still gates.
    expect(checksSignal(evaluation)).toMatchObject({ value: undefined, gateFailed: true });
  });
});
