import { describe, expect, it } from 'vitest';
import { expectationsSignal } from '../../../src/scoring/expectations-signal.js';
import type { ScoringCase } from '../../../src/scoring/types.js';
import { sampleEvaluation } from './fixture.js';

describe('expectationsSignal', () => {
  it('is the pass rate over the cases that have expectations; a flagged PASS fails', () => {
    const signal = expectationsSignal(sampleEvaluation());
    // t1: e1 passes, e2 flagged, on 2 samples → 2/4; h1: sample 0 passes, sample 1 fails → 1/2
    expect(signal.value).toBeCloseTo(3 / 6, 12);
    expect(signal.perCase).toEqual({ t1: 0.5, h1: 0.5 });
  });

  const one: ScoringCase = { id: 'c', split: 'train', checks: [], expectations: ['x', 'y'] };
  const passedBoth = {
    caseId: 'c',
    expectations: [
      { text: 'x', passed: true, evidence: 'q' },
      { text: 'y', passed: true, evidence: 'q' },
    ],
  };

  it('fails every expectation of a failed generation, keeping the denominator', () => {
    const signal = expectationsSignal({
      cases: [one],
      samples: 2,
      outputs: [
        { caseId: 'c', sample: 0, ok: true, text: 'a' },
        { caseId: 'c', sample: 1, ok: false, text: '' },
      ],
      gradings: [passedBoth],
    });
    expect(signal.value).toBe(0.5);
  });

  it('fails the expectations of an ungraded case', () => {
    const outputs = [{ caseId: 'c', sample: 0, ok: true, text: 'a' }];
    expect(expectationsSignal({ cases: [one], samples: 1, outputs, gradings: [] }).value).toBe(0);
  });

  it('counts only the case’s own texts, each once', () => {
    const outputs = [{ caseId: 'c', sample: 0, ok: true, text: 'a' }];
    const gradings = [
      {
        caseId: 'c',
        expectations: [
          { text: 'x', passed: true, evidence: 'q' },
          { text: 'x', passed: true, evidence: 'q' },
          { text: 'Y (reworded)', passed: true, evidence: 'q' },
          { text: 'extra', passed: true, evidence: 'q' },
        ],
      },
    ];
    expect(expectationsSignal({ cases: [one], samples: 1, outputs, gradings }).value).toBe(0.5);
  });

  it('is absent when no case has expectations', () => {
    const signal = expectationsSignal({
      cases: [{ ...one, expectations: [] }],
      samples: 1,
      outputs: [],
      gradings: [],
    });
    expect(signal).toEqual({ value: undefined, perCase: {} });
  });
});
