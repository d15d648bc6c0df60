/** The calibration as text: intervals, n/a for undefined figures, disagreements, the probes' place. */
import pc from 'picocolors';
import { describe, expect, it } from 'vitest';
import type { CalibrationFile } from '../../../src/calibrate/calibration-file.js';
import { describeKappa, findDisagreements, formatCalibration } from '../../../src/ui/format-calibration.js';

const plain = pc.createColors(false);
const none = { estimate: null, interval: null };

function calibration(partial: Partial<CalibrationFile> = {}): CalibrationFile {
  return {
    format: 1,
    runId: '20261201-1830-cold-email-7kq2',
    experiment: 'cold-email',
    createdAt: '2026-12-01T18:30:00.000Z',
    labels: { file: 'experiments/cold-email/labels.yaml', sha256: 'a'.repeat(64), count: 12 },
    judge: 'anthropic / claude-sonnet-4-5',
    grader: null,
    simulated: [],
    bootstrap: { resamples: 2000, level: 0.95, seed: 1 },
    criteria: [
      {
        criterion: 'clarity',
        title: 'Clarity',
        labels: 12,
        humanMean: 3.25,
        judgeMean: 3.5,
        exact: { estimate: 0.5, interval: [0.25, 0.75] },
        withinOne: { estimate: 0.9166, interval: [0.75, 1] },
        kappa: { estimate: 0.62, interval: [0.31, 0.85] },
        spearman: { estimate: 0.7, interval: [0.4, 0.9] },
      },
      {
        criterion: 'tone',
        title: 'Tone',
        labels: 12,
        humanMean: 4,
        judgeMean: 4,
        exact: { estimate: 1, interval: [1, 1] },
        withinOne: { estimate: 1, interval: [1, 1] },
        kappa: none,
        spearman: none,
      },
      {
        criterion: 'depth',
        title: 'Depth',
        labels: 0,
        humanMean: null,
        judgeMean: null,
        exact: none,
        withinOne: none,
        kappa: none,
        spearman: none,
      },
    ],
    expectations: null,
    lowestKappa: { criterion: 'clarity', kappa: 0.62 },
    outputs: [
      {
        label: 0,
        line: 7,
        case: 'saas-cto',
        file: null,
        human: { clarity: 1, tone: 4 },
        judge: { clarity: 4, tone: 4 },
        reasoning: 'Short and plain.',
        expectations: [],
      },
      {
        label: 1,
        line: 12,
        case: null,
        file: null,
        human: { clarity: 5 },
        judge: { clarity: 2.5 },
        reasoning: null,
        expectations: [],
      },
    ],
    probes: null,
    costUsd: 0.0123,
    seconds: 12,
    ...partial,
  };
}

describe('formatCalibration', () => {
  it('counts one labelled verdict in the singular', () => {
    const one = { estimate: 1, interval: [0.2, 1] as [number, number] };
    const text = formatCalibration(
      calibration({
        expectations: { labels: 1, tp: 1, fp: 0, tn: 0, fn: 0, tpr: one, tnr: none, mcc: none },
      }),
      { colors: plain },
    );
    expect(text).toContain('the grader against 1 labelled verdict\n');
  });
  it('prints each labelled criterion with intervals, n/a where undefined, and the lowest kappa in words', () => {
    const text = formatCalibration(calibration(), { colors: plain });
    expect(text).toContain("Calibration of cold-email's judge: 12 labelled outputs");
    expect(text).toMatch(
      /^clarity +12 +0\.50 \[0\.25, 0\.75\] +0\.92 \[0\.75, 1\.00\] +0\.62 \[0\.31, 0\.85\] +0\.70 \[0\.40, 0\.90\] +3\.3 \/ 3\.5$/m,
    );
    expect(text).toMatch(
      /^tone +12 +1\.00 \[1\.00, 1\.00\] +1\.00 \[1\.00, 1\.00\] +n\/a +n\/a +4\.0 \/ 4\.0$/m,
    );
    expect(text).toContain('not labelled: depth');
    expect(text).not.toContain('few labels');
    expect(text).toContain('Lowest kappa 0.62 (clarity): substantial agreement.');
  });

  it('lists the largest disagreements first, with the judge reasoning', () => {
    expect(findDisagreements(calibration()).map((d) => [d.line, d.criterion])).toEqual([
      [7, 'clarity'],
      [12, 'clarity'],
    ]);
    const text = formatCalibration(calibration(), { colors: plain });
    expect(text).toContain('  line 7 (saas-cto): clarity human 1, judge 4 — Short and plain.');
    expect(text).toContain('  line 12: clarity human 5, judge 2.5');
  });

  it('has a place for the bias probes: their verdicts, or that --no-probes skipped them', () => {
    const skipped = formatCalibration(calibration(), { colors: plain });
    expect(skipped).toMatch(/^Bias probes\n {2}skipped \(--no-probes\)$/m);
    const probed = formatCalibration(
      calibration({
        probes: [
          {
            probe: 'order',
            applicable: false,
            estimate: null,
            interval: null,
            biased: null,
            verdict: 'not applicable: the judge scores one output per call',
            calls: 0,
          },
          {
            probe: 'length',
            applicable: true,
            estimate: 0.42,
            interval: [0.2, 0.61],
            biased: true,
            verdict: 'length bias: padded outputs score higher',
            calls: 1,
          },
        ],
      }),
      { colors: plain },
    );
    expect(probed).toContain('  order   not applicable: the judge scores one output per call');
    expect(probed).toContain('  length  length bias: padded outputs score higher (1 judge run)');
  });

  it('warns when there are few labels, and says so when no kappa is defined', () => {
    const few = calibration({
      criteria: [{ ...(calibration().criteria[1] as CalibrationFile['criteria'][number]), labels: 4 }],
      lowestKappa: null,
    });
    const text = formatCalibration(few, { colors: plain });
    expect(text).toContain('few labels: with under 10 per criterion the intervals are wide');
    expect(text).toContain('No kappa is defined');
  });
});

describe('describeKappa', () => {
  it('puts kappa into the usual bands', () => {
    expect(describeKappa(0.85)).toBe('strong agreement');
    expect(describeKappa(0.45)).toMatch(/^moderate/);
    expect(describeKappa(0.1)).toMatch(/no better than chance/);
  });
});
