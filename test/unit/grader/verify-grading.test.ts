import { describe, expect, it } from 'vitest';
import { flaggedExpectations, verifyGrading } from '../../../src/grader/verify-grading.js';

const outputs = [
  'Hi Dana, usage-based billing makes revenue forecasting hard. Worth a 15-minute call Thursday?',
];
const expectations = ['Names one concrete pain of usage-based billing', 'Asks for a call', 'Mentions GDPR'];

function grading(
  items: { text: string; passed: boolean; evidence: string }[],
  extra: Record<string, unknown> = {},
) {
  return {
    expectations: items,
    summary: { passed: 3, failed: 0, total: 3, pass_rate: 1 },
    claims: [
      { claim: 'Close takes 2 days', type: 'factual', verified: false, evidence: 'not in transcript' },
    ],
    eval_feedback: { suggestions: [{ assertion: 'Asks for a call', reason: 'format rule' }], overall: 'ok' },
    ...extra,
  };
}

const good = [
  {
    text: expectations[0] as string,
    passed: true,
    evidence: '"usage-based billing makes revenue forecasting hard"',
  },
  { text: expectations[1] as string, passed: true, evidence: 'Worth a 15-minute call Thursday?' },
  { text: expectations[2] as string, passed: false, evidence: 'GDPR is not mentioned.' },
];

describe('verifyGrading', () => {
  it('recomputes the summary and keeps the critique', () => {
    const result = verifyGrading(grading(good), { expectations, outputs });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.grading.summary).toEqual({ passed: 2, failed: 1, total: 3, pass_rate: 2 / 3 });
    expect(result.grading.claims).toHaveLength(1);
    expect(result.grading.eval_feedback.suggestions).toEqual([
      { assertion: 'Asks for a call', reason: 'format rule' },
    ]);
    expect(flaggedExpectations(result.grading)).toEqual([]);
  });

  it('turns a PASS whose quote is not in the output into a flagged FAIL', () => {
    const items = good.map((item, i) =>
      i === 2 ? { ...item, passed: true, evidence: '"We are fully GDPR compliant across the EU."' } : item,
    );
    const result = verifyGrading(grading(items), { expectations, outputs });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.grading.expectations[2]).toEqual({
      text: 'Mentions GDPR',
      passed: false,
      evidence: '"We are fully GDPR compliant across the EU."',
      flag: 'claimed PASS not verified: the quoted evidence does not occur in any output',
    });
    expect(result.grading.summary.passed).toBe(2);
    expect(flaggedExpectations(result.grading)).toHaveLength(1);
  });

  it('puts expectations back in the order asked, tolerating surrounding spaces only', () => {
    const result = verifyGrading(
      grading([good[2], { ...good[0], text: ` ${expectations[0]} ` }, good[1]] as typeof good),
      { expectations, outputs },
    );
    expect(result.ok && result.grading.expectations.map((e) => e.text)).toEqual(expectations);
  });

  it.each([
    [
      'reworded',
      good.map((item, i) => (i === 1 ? { ...item, text: 'Asks for a meeting' } : item)),
      /"Asks for a call" is missing or was reworded/,
    ],
    ['dropped', good.slice(0, 2), /"Mentions GDPR" is missing/],
    [
      'added',
      [...good, { text: 'Is polite', passed: true, evidence: 'Hi Dana' }],
      /"Is polite" is not one of the expectations/,
    ],
  ])('rejects %s expectations', (_, items, problem) => {
    const result = verifyGrading(grading(items), { expectations, outputs });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problems.join('\n')).toMatch(problem);
  });

  it('rejects a file of the wrong shape', () => {
    expect(
      verifyGrading({ expectations: [{ text: 'x', passed: 'yes' }] }, { expectations: ['x'], outputs }),
    ).toMatchObject({ ok: false });
    expect(verifyGrading('garbage', { expectations: ['x'], outputs }).ok).toBe(false);
  });

  it('keeps an earlier verification’s flag', () => {
    const items = [{ ...good[0], passed: false, flag: 'claimed PASS not verified: x' }, good[1], good[2]];
    const result = verifyGrading(grading(items as typeof good), { expectations, outputs });
    expect(result.ok && result.grading.expectations[0]?.flag).toBe('claimed PASS not verified: x');
  });
});
