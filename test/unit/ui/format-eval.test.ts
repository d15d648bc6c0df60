import pc from 'picocolors';
import { describe, expect, it } from 'vitest';
import { formatEval, worstCases } from '../../../src/ui/format-eval.js';
import { sampleCase, sampleReport } from '../../fixtures/eval/sample-report.js';

const plain = { colors: pc.createColors(false), cwd: '/work' };

describe('formatEval', () => {
  it('prints scores and signals per split, criteria, check pass rates, worst cases, cost and the record', () => {
    const text = formatEval(sampleReport(), plain);
    expect(text.split('\n')).toEqual([
      'Eval        demo  1 sample per case',
      'Scores      split     total  checks   judge  expect.  cases',
      '            train    0.7000  0.7000  0.5000        —      2',
      '            holdout  0.6000  0.6000  0.5000        —      1',
      '            all      0.6600  0.6600  0.5000        —      3',
      'Gates       none configured',
      'Criteria    1–5      train  holdout   all',
      '            clarity   3.50     3.50  3.50',
      'Checks      pass rate    train  holdout      all',
      '            short      50% 1/2  50% 1/2  50% 1/2',
      'Worst       0.2500  case-b (train)  short failed: 130 words, above the maximum 120',
      '            0.6000  case-c (holdout)',
      '            0.7500  case-a (train)',
      'Cost        $0.0123 over 6 calls (generator 3, judge 3)',
      'Time        4.5 s',
      'Record      20261129-2230-demo-k3f9  runs/20261129-2230-demo-k3f9',
    ]);
  });

  it('says the cost is unknown, not $0, when no call had a price, and which part is unpriced otherwise', () => {
    const unpriced = sampleReport();
    unpriced.cost = { ...unpriced.cost, usd: 0, unpricedCalls: unpriced.cost.calls };
    expect(formatEval(unpriced, plain)).toContain(
      'Cost        unknown: 6 calls (generator 3, judge 3), all to models with no price; set `price` on their entries to count them',
    );
    const some = sampleReport();
    some.cost = { ...some.cost, unpricedCalls: 3 };
    expect(formatEval(some, plain)).toContain(
      'Cost        $0.0123 for the priced calls, and 3 calls with no price, over 6 calls (generator 3, judge 3)',
    );
  });

  it('labels simulated results, lists gate failures and unmet expectations with evidence', () => {
    const report = sampleReport({ simulated: true, simulatedRoles: ['generator', 'judge'] });
    const splits = report.splits as NonNullable<typeof report.splits>;
    splits.all = {
      ...splits.all,
      gateFailed: true,
      gateFailures: [{ caseId: 'case-b', sample: 0, check: 'is-json', reason: 'output is not JSON' }],
      checks: [{ name: 'is-json', gate: true, passed: 2, total: 3, passRate: 2 / 3 }],
    };
    report.cases = [
      sampleCase({
        failedExpectations: [
          { text: 'Names the product', evidence: 'Acme   Cloud\nis great', flag: null },
          { text: 'Offers a next step', evidence: '', flag: 'claimed PASS not verified: quote not found' },
        ],
      }),
    ];
    const text = formatEval(report, plain);
    expect(text).toContain(
      '            simulated (generator, judge): these scores show how the tool works, not real quality',
    );
    expect(text).toContain(
      'Gates       FAILED: 1 gate failure (the prompt is ineligible)\n            is-json on case-b#0: output is not JSON',
    );
    expect(text).toContain('            is-json (gate)');
    expect(text).toContain(
      [
        'Unmet       case-a  "Names the product"',
        '              evidence: "Acme Cloud is great"',
        '            case-a  "Offers a next step"',
        '              claimed PASS not verified: quote not found',
      ].join('\n'),
    );
  });

  it('shows a failed evaluation as an error without scores', () => {
    const report = sampleReport({
      status: 'error',
      error: { kind: 'judge_error', message: 'garbage JSON' },
      splits: null,
      cases: [],
    });
    const text = formatEval(report, plain);
    expect(text).toContain('Error       judge_error: garbage JSON');
    expect(text).toContain('no score: a judge or grader failure never becomes one');
    expect(text).not.toContain('Scores');
  });

  it('shows the --fail-under verdict', () => {
    const failed = sampleReport({
      failUnder: {
        split: 'all',
        threshold: 0.9,
        score: 0.66,
        passed: false,
        reason: 'the all score 0.6600 is below 0.9000 by 0.2400',
      },
    });
    expect(formatEval(failed, plain)).toContain(
      'Verdict     FAILED --fail-under 0.9 (all): the all score 0.6600 is below 0.9000 by 0.2400',
    );
    const passed = sampleReport({
      failUnder: { split: 'train', threshold: 0.5, score: 0.7, passed: true, reason: null },
    });
    expect(formatEval(passed, plain)).toContain('Verdict     passed: --fail-under 0.5 (train), score 0.7000');
  });
});

describe('worstCases', () => {
  it('takes the lowest totals first, skipping perfect and unscored cases', () => {
    const cases = [
      sampleCase({ id: 'b', total: 0.5 }),
      sampleCase({ id: 'perfect', total: 1 }),
      sampleCase({ id: 'a', total: 0.5 }),
      sampleCase({ id: 'none', total: null }),
      sampleCase({ id: 'low', total: 0.1 }),
    ];
    expect(worstCases(cases, 2).map((c) => c.id)).toEqual(['low', 'a']);
  });
});
