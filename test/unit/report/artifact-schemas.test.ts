import { describe, expect, it } from 'vitest';
import {
  parseChecks,
  parseDecision,
  parseGrading,
  parseJudgeMap,
  parseMutation,
} from '../../../src/report/artifact-schemas.js';

const outcome = {
  name: 'word-count ≤ 120',
  type: 'word-count',
  weight: 1,
  gate: false,
  pass: true,
  score: 1,
  reason: '88 words',
};

describe('parseChecks', () => {
  it('reads the nested checks.json and the flat variant alike', () => {
    const nested = { results: [{ caseId: 'a', sample: 0, outcomes: [outcome] }] };
    expect(parseChecks(nested)).toEqual(nested.results);
    const flat = [
      { ...outcome, caseId: 'a', sample: 0 },
      { ...outcome, name: 'no buzzwords', caseId: 'a', sample: 0 },
      { ...outcome, caseId: 'a', sample: 1 },
    ];
    expect(parseChecks(flat)).toEqual([
      { caseId: 'a', sample: 0, outcomes: [outcome, { ...outcome, name: 'no buzzwords' }] },
      { caseId: 'a', sample: 1, outcomes: [outcome] },
    ]);
    expect(parseChecks({ results: flat })).toHaveLength(2);
  });

  it('returns null for anything else', () => {
    expect(parseChecks(null)).toBeNull();
    expect(parseChecks({ results: [{ caseId: 'a' }] })).toBeNull();
    expect(parseChecks('checks')).toBeNull();
  });
});

describe('parseJudgeMap', () => {
  it('reads the list written by the runner and an object keyed by file', () => {
    expect(parseJudgeMap([{ file: 'output_00.txt', case_id: 'a', sample: 1 }])).toEqual(
      new Map([['output_00.txt', { caseId: 'a', sample: 1 }]]),
    );
    expect(parseJudgeMap({ 'output_01.txt': { caseId: 'b', sample: 0 } })).toEqual(
      new Map([['output_01.txt', { caseId: 'b', sample: 0 }]]),
    );
  });

  it('returns null when an entry names no case', () => {
    expect(parseJudgeMap([{ file: 'output_00.txt', sample: 0 }])).toBeNull();
    expect(parseJudgeMap(42)).toBeNull();
  });
});

describe('parseDecision and parseMutation', () => {
  it('takes the reason, the margin in either form and the error kind', () => {
    expect(
      parseDecision({ status: 'keep', reason: 'train +0.05', margin: { train: 0.02, holdout: 0.03 } }),
    ).toEqual({
      reason: 'train +0.05',
      margin: { train: 0.02, holdout: 0.03 },
      errorKind: null,
      message: null,
      cases: null,
      screens: [],
    });
    expect(parseDecision({ margin: 0.01, kind: 'judge_error', message: 'bad file' })).toEqual({
      reason: null,
      margin: { train: 0.01, holdout: 0.01 },
      errorKind: 'judge_error',
      message: 'bad file',
      cases: null,
      screens: [],
    });
    expect(parseDecision({ reason: 'x', margin: 'auto' })?.margin).toBeNull();
    expect(parseDecision({ reason: 7 })).toBeNull();
  });

  it("takes a paired decision's per-case differences and each proposal's screen, skipping what it cannot read", () => {
    const screen = { cases: ['t1', 't2'], mean: -0.1, passed: false, callsSaved: 4 };
    const cases = [{ split: 'train', caseId: 't1', candidate: 0.6, incumbent: 0.4, d: 0.2 }];
    const note = parseDecision({
      status: 'inconclusive',
      reason: 'unclear',
      acceptance: 'paired',
      paired: { confidence: 0.95, looks: 2, cases },
      candidates: [
        { candidate: 0, hypothesis: 'a', screen },
        { candidate: 1, hypothesis: 'b' },
        { candidate: 2, screen: { mean: 'high' } },
      ],
    });
    expect(note).toMatchObject({ reason: 'unclear', cases, screens: [{ candidate: 0, screen }] });
    expect(parseDecision({ reason: 'x', paired: { cases: [{ caseId: 7 }] } })?.cases).toBeNull();
  });

  it('reads proposals from an object or a bare list', () => {
    const proposals = [{ candidate: 0, hypothesis: 'shorter', promptSha256: 'a'.repeat(64) }];
    expect(parseMutation({ proposals })).toEqual([{ candidate: 0, hypothesis: 'shorter', duplicate: false }]);
    expect(parseMutation(proposals)).toHaveLength(1);
    expect(parseMutation({ proposals: [{ hypothesis: 'no candidate' }] })).toBeNull();
  });
});

describe('parseGrading', () => {
  it('keeps the flag the runner put on an unverifiable PASS', () => {
    const grading = parseGrading({
      expectations: [
        { text: 'Names a pain', passed: false, evidence: 'made up', flag: 'claimed PASS not verified' },
      ],
    });
    expect(grading?.expectations[0]?.flag).toBe('claimed PASS not verified');
    expect(grading?.eval_feedback).toEqual({ suggestions: [], overall: '' });
    expect(parseGrading({ expectations: 'none' })).toBeNull();
  });
});
