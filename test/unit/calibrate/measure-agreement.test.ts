/** From labelled outputs to calibration.json's figures, and the --fail-under-kappa gate. */
import { describe, expect, it } from 'vitest';
import type { CalibrationFile, LabelledOutput } from '../../../src/calibrate/calibration-file.js';
import { judgeKappaGate } from '../../../src/calibrate/kappa-gate.js';
import {
  findLowestKappa,
  measureCriteria,
  measureExpectations,
  toScale,
} from '../../../src/calibrate/measure-agreement.js';

const settings = { resamples: 500, level: 0.95, seed: 1 };
const criteria = [
  { key: 'clarity', title: 'Clarity', weight: 1 },
  { key: 'tone', title: 'Tone', weight: 1 },
  { key: 'depth', title: 'Depth', weight: 1 },
];

function output(label: number, human: Record<string, number>, judge: Record<string, number>): LabelledOutput {
  return {
    label,
    line: label * 3 + 1,
    case: null,
    file: null,
    human,
    judge,
    reasoning: 'r',
    expectations: [],
  };
}

describe('measureCriteria', () => {
  // clarity: the judge agrees exactly; tone: the judge says 3 to everything.
  const outputs = [
    output(0, { clarity: 1, tone: 1 }, { clarity: 1, tone: 3 }),
    output(1, { clarity: 2, tone: 2 }, { clarity: 2, tone: 3 }),
    output(2, { clarity: 4, tone: 4 }, { clarity: 4, tone: 3 }),
    output(3, { clarity: 5, tone: 5 }, { clarity: 5, tone: 3 }),
  ];
  const measured = measureCriteria(outputs, criteria, settings);

  it('measures each criterion over the outputs labelled for it', () => {
    const [clarity, tone, depth] = measured;
    expect(clarity).toMatchObject({ criterion: 'clarity', labels: 4, humanMean: 3, judgeMean: 3 });
    expect(clarity?.exact.estimate).toBe(1);
    expect(clarity?.kappa.estimate).toBeCloseTo(1, 12);
    expect(clarity?.spearman.estimate).toBeCloseTo(1, 12);
    expect(tone?.kappa.estimate).toBeCloseTo(0, 12);
    expect(tone?.spearman.estimate).toBeNull();
    expect(tone?.withinOne.estimate).toBe(0.5);
    expect(depth).toMatchObject({ labels: 0, humanMean: null, exact: { estimate: null, interval: null } });
  });

  it('is reproducible under the seed', () => {
    expect(measureCriteria(outputs, criteria, settings)).toEqual(measured);
  });

  it('rounds a mean over judge samples to the scale for the categorical statistics', () => {
    expect(toScale(3.5)).toBe(4);
    expect(toScale(3.49)).toBe(3);
    const [clarity] = measureCriteria(
      [output(0, { clarity: 4 }, { clarity: 3.5 }), output(1, { clarity: 2 }, { clarity: 2.4 })],
      criteria,
      settings,
    );
    expect(clarity?.exact.estimate).toBe(1);
    expect(clarity?.judgeMean).toBeCloseTo(2.95, 12);
  });

  it('finds the lowest defined kappa', () => {
    expect(findLowestKappa(measured)).toEqual({ criterion: 'tone', kappa: expect.closeTo(0, 12) });
    expect(findLowestKappa(measured.filter((c) => c.criterion === 'depth'))).toBeNull();
  });
});

describe('measureExpectations', () => {
  it('counts the grader against the human verdicts', () => {
    const withVerdicts = (human: boolean, grader: boolean, label: number): LabelledOutput => ({
      ...output(label, {}, {}),
      expectations: [{ text: 'x', human, grader }],
    });
    const measured = measureExpectations(
      [
        withVerdicts(true, true, 0),
        withVerdicts(true, false, 1),
        withVerdicts(false, false, 2),
        withVerdicts(false, false, 3),
      ],
      settings,
    );
    expect(measured).toMatchObject({ labels: 4, tp: 1, fn: 1, tn: 2, fp: 0 });
    expect(measured?.tpr.estimate).toBe(0.5);
    expect(measured?.tnr.estimate).toBe(1);
    expect(measured?.mcc.estimate).toBeCloseTo(1 / Math.sqrt(3), 12);
    expect(measureExpectations([output(0, {}, {})], settings)).toBeNull();
  });
});

describe('judgeKappaGate', () => {
  const calibration = (criteria: CalibrationFile['criteria']): CalibrationFile =>
    ({ criteria, lowestKappa: findLowestKappa(criteria) }) as CalibrationFile;
  const outputs = [
    output(0, { clarity: 1, tone: 2 }, { clarity: 1, tone: 3 }),
    output(1, { clarity: 3, tone: 3 }, { clarity: 3, tone: 3 }),
    output(2, { clarity: 5, tone: 4 }, { clarity: 5, tone: 4 }),
  ];

  it('passes when every labelled criterion reaches K and fails below it', () => {
    const measured = measureCriteria(outputs, criteria, settings);
    const tone = measured[1]?.kappa.estimate ?? NaN;
    expect(tone).toBeLessThan(1);
    expect(judgeKappaGate(calibration(measured), tone)).toEqual({ passed: true });
    const failed = judgeKappaGate(calibration(measured), 0.99);
    expect(failed).toEqual({
      passed: false,
      reason: expect.stringMatching(/lowest kappa, .* \(tone\), is below 0.99/),
    });
  });

  it('fails when a labelled kappa is undefined or nothing is labelled', () => {
    const constant = measureCriteria(
      [output(0, { clarity: 3 }, { clarity: 3 }), output(1, { clarity: 3 }, { clarity: 3 })],
      criteria,
      settings,
    );
    expect(judgeKappaGate(calibration(constant), 0)).toMatchObject({
      passed: false,
      reason: expect.stringMatching(/undefined for clarity/),
    });
    expect(judgeKappaGate(calibration([]), 0)).toMatchObject({ passed: false });
  });
});
