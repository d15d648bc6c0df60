import { describe, expect, it } from 'vitest';
import {
  buildEvalReport,
  costFromLedger,
  type EvalReportMeta,
} from '../../../src/eval-command/build-eval-report.js';
import type { CandidateOutcome } from '../../../src/evaluate/evaluate-types.js';
import { EvalReport } from '../../../src/eval-command/eval-report.js';
import { createCostLedger } from '../../../src/providers/ledger.js';
import { scoreSplit } from '../../../src/scoring/index.js';
import { sampleEvaluation } from '../scoring/fixture.js';

const META: EvalReportMeta = {
  runId: '20261129-2230-demo-k3f9',
  runDir: '/runs/20261129-2230-demo-k3f9',
  experiment: 'demo',
  simulatedRoles: ['generator'],
  samples: 2,
  seconds: 3,
  cost: { usd: 0.5, calls: 9, unpricedCalls: 1, byRole: { generator: { usd: 0.5, calls: 6 } } },
  caseSeconds: { t1: 1.5, t2: 0.5 },
};

function evaluated(): CandidateOutcome {
  const evaluation = sampleEvaluation();
  return {
    ok: true,
    evaluation,
    generations: [],
    scores: {
      train: scoreSplit(evaluation, 'train'),
      holdout: scoreSplit(evaluation, 'holdout'),
      all: scoreSplit(evaluation, 'all'),
    },
    gradings: [
      {
        caseId: 't1',
        raw: null,
        grading: {
          expectations: [
            { text: 'e1', passed: true, evidence: 'quoted' },
            {
              text: 'e2',
              passed: false,
              evidence: 'not in output',
              flag: 'claimed PASS not verified: quote not found',
            },
          ],
          summary: { passed: 1, failed: 1, total: 2, pass_rate: 0.5 },
          claims: [],
          eval_feedback: { suggestions: [], overall: '' },
        },
      },
    ],
    costUsd: 0.5,
  };
}

describe('buildEvalReport', () => {
  const report = buildEvalReport(evaluated(), META);

  it('has the stable shape, scores per split and the metadata', () => {
    expect(EvalReport.parse(report)).toEqual(report);
    expect(report).toMatchObject({
      status: 'ok',
      error: null,
      simulated: true,
      simulatedRoles: ['generator'],
      failUnder: null,
    });
    const evaluation = sampleEvaluation();
    for (const name of ['train', 'holdout', 'all'] as const) {
      const expected = scoreSplit(evaluation, name);
      expect(report.splits?.[name]).toMatchObject({
        split: name,
        total: expected.total,
        signals: { checks: expected.checks, judge: expected.judge, expectations: expected.expectations },
        gateFailures: expected.gateFailures,
        criteria: expected.criteria,
      });
    }
    expect(report.splits?.train.cases).toBe(2);
    expect(report.splits?.all.cases).toBe(3);
  });

  it('counts check pass rates per split, a failed generation failing every check', () => {
    const rates = (name: 'train' | 'holdout' | 'all') =>
      report.splits?.[name].checks.map((r) => [r.name, r.gate, r.passed, r.total]);
    expect(rates('train')).toEqual([
      ['A', true, 3, 4],
      ['B', false, 2, 4],
    ]);
    expect(rates('holdout')).toEqual([
      ['A', true, 1, 2],
      ['B', false, 2, 2],
    ]);
    expect(rates('all')).toEqual([
      ['A', true, 4, 6],
      ['B', false, 4, 6],
    ]);
    expect(report.splits?.all.checks[0]?.passRate).toBeCloseTo(4 / 6);
  });

  it('counts expectations as the signal does: flagged passes fail, per-sample gradings apply to their sample', () => {
    expect(report.splits?.train.expectations).toEqual({ passed: 2, total: 4 });
    expect(report.splits?.holdout.expectations).toEqual({ passed: 1, total: 2 });
    expect(report.splits?.all.expectations).toEqual({ passed: 3, total: 6 });
  });

  it('describes each case: failed generations, failed checks, unmet expectations with evidence, a short reason', () => {
    const byId = Object.fromEntries(report.cases.map((c) => [c.id, c]));
    expect(byId.t2?.generationErrors).toEqual([{ sample: 1, error: 'HTTP 500' }]);
    expect(byId.t2?.reason).toBe('generation failed: HTTP 500');
    expect(byId.t2?.failedChecks).toEqual([{ check: 'B', sample: 0, gate: false, reason: 'scored 0' }]);
    expect(byId.t1?.failedChecks).toEqual([]);
    expect(byId.t1?.failedExpectations).toEqual([
      { text: 'e2', evidence: 'not in output', flag: 'claimed PASS not verified: quote not found' },
    ]);
    expect(byId.t1?.reason).toBe('expectation not met: "e2"');
    expect(byId.t1?.seconds).toBe(1.5);
    expect(byId.h1?.seconds).toBe(0);
    expect(byId.h1?.failedChecks).toEqual([{ check: 'A', sample: 1, gate: true, reason: 'scored 0' }]);
    expect(byId.h1?.reason).toBe('gate A failed: scored 0');
    expect(byId.t1?.judge.map((j) => j.sample)).toEqual([0, 1]);
    const scores = scoreSplit(sampleEvaluation(), 'all').cases;
    for (const c of report.cases) expect(c.total).toBe(scores.find((s) => s.caseId === c.id)?.total);
  });

  it('lists every expectation of a case with no grading as not graded', () => {
    const outcome = evaluated();
    if (!outcome.ok) throw new Error('unreachable');
    const cases = buildEvalReport({ ...outcome, gradings: [] }, META).cases;
    expect(cases.find((c) => c.id === 't1')?.failedExpectations).toEqual([
      { text: 'e1', evidence: '', flag: 'not graded' },
      { text: 'e2', evidence: '', flag: 'not graded' },
    ]);
  });

  it('carries a failed evaluation as an error with no scores', () => {
    const failed = buildEvalReport(
      { ok: false, errorKind: 'judge_error', message: 'the judge timed out', generations: [], costUsd: 0.1 },
      META,
    );
    expect(EvalReport.parse(failed)).toEqual(failed);
    expect(failed).toMatchObject({
      status: 'error',
      error: { kind: 'judge_error', message: 'the judge timed out' },
      splits: null,
      cases: [],
    });
  });
});

describe('costFromLedger', () => {
  it('totals the calls, keeps roles that made calls and counts unpriced ones', () => {
    const ledger = createCostLedger();
    const call = {
      provider: 'anthropic',
      model: 'm',
      ok: true,
      inputTokens: 1,
      outputTokens: 1,
      cached: false,
      attempts: 1,
      latencyMs: 1,
      simulated: false,
    } as const;
    ledger.record({ ...call, role: 'generator', costUsd: 0.25 });
    ledger.record({ ...call, role: 'generator', costUsd: null });
    ledger.record({ ...call, role: 'judge', costUsd: 0.5 });
    expect(costFromLedger(ledger.snapshot())).toEqual({
      usd: 0.75,
      calls: 3,
      unpricedCalls: 1,
      byRole: { generator: { usd: 0.25, calls: 2 }, judge: { usd: 0.5, calls: 1 } },
    });
  });
});
