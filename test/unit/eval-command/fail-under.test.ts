import { describe, expect, it } from 'vitest';
import { AutoresearchError } from '../../../src/errors.js';
import type { SplitReport } from '../../../src/eval-command/eval-report.js';
import { judgeFailUnder, parseFailUnder } from '../../../src/eval-command/fail-under.js';
import { sampleReport } from '../../fixtures/eval/sample-report.js';

describe('parseFailUnder', () => {
  it('accepts scores from 0 to 1', () => {
    expect(parseFailUnder('0')).toBe(0);
    expect(parseFailUnder('0.85')).toBe(0.85);
    expect(parseFailUnder('1')).toBe(1);
  });

  it.each(['2', '-0.1', 'high', '', 'NaN', '1.0001'])('refuses %j as a usage error (exit 2)', (value) => {
    const error = (() => {
      try {
        parseFailUnder(value);
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(AutoresearchError);
    expect((error as AutoresearchError).exitCode).toBe(2);
    expect((error as AutoresearchError).message).toContain('--fail-under');
  });
});

describe('judgeFailUnder', () => {
  it('passes at or above the threshold of the chosen split', () => {
    const report = sampleReport();
    expect(judgeFailUnder(report, 0.66, 'all')).toEqual({
      split: 'all',
      threshold: 0.66,
      score: 0.66,
      passed: true,
      reason: null,
    });
    expect(judgeFailUnder(report, 0.7, 'train').passed).toBe(true);
  });

  it('fails below it and says by how much', () => {
    expect(judgeFailUnder(sampleReport(), 0.65, 'holdout')).toEqual({
      split: 'holdout',
      threshold: 0.65,
      score: 0.6,
      passed: false,
      reason: 'the holdout score 0.6000 is below 0.6500 by 0.0500',
    });
  });

  it('fails on a gate failure anywhere, whatever the score, and says so', () => {
    const report = sampleReport();
    const splits = report.splits as NonNullable<typeof report.splits>;
    const gated: SplitReport = {
      ...splits.all,
      gateFailed: true,
      gateFailures: [{ caseId: 'case-c', sample: 0, check: 'json', reason: 'not JSON' }],
    };
    const verdict = judgeFailUnder({ ...report, splits: { ...splits, all: gated } }, 0, 'train');
    expect(verdict.passed).toBe(false);
    expect(verdict.score).toBe(0.7);
    expect(verdict.reason).toBe('1 gate failure (a failed gate fails --fail-under whatever the score)');
    const both = judgeFailUnder({ ...report, splits: { ...splits, all: gated } }, 0.9, 'all');
    expect(both.reason).toBe(
      'the all score 0.6600 is below 0.9000 by 0.2400; 1 gate failure (a failed gate fails --fail-under whatever the score)',
    );
  });

  it('fails when the split has no score or the evaluation failed', () => {
    const report = sampleReport();
    const splits = report.splits as NonNullable<typeof report.splits>;
    const empty = { ...splits, holdout: { ...splits.holdout, total: null, cases: 0 } };
    expect(judgeFailUnder({ ...report, splits: empty }, 0, 'holdout')).toMatchObject({
      passed: false,
      score: null,
      reason: 'the holdout split has no score (it has no cases)',
    });
    const failed = sampleReport({
      status: 'error',
      error: { kind: 'grader_error', message: 'boom' },
      splits: null,
    });
    expect(judgeFailUnder(failed, 0, 'all')).toMatchObject({
      passed: false,
      reason: 'the evaluation failed (grader_error: boom), so there is no score to compare',
    });
  });
});
