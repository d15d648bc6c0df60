import { describe, expect, it } from 'vitest';
import {
  baselineFrom,
  type DecisionSide,
  decide,
  marginFrom,
  pickBestCandidate,
  sampleStdDev,
} from '../../../src/loop/decide.js';

const incumbent: DecisionSide = { train: 0.7, holdout: 0.6, eligible: true, chars: 1000 };
const margin = { train: 0.05, holdout: 0.03 };

function side(overrides: Partial<DecisionSide>): DecisionSide {
  return { ...incumbent, ...overrides };
}

describe('decide', () => {
  it('keeps a train gain beyond the margin when the holdout holds', () => {
    const d = decide({ candidate: side({ train: 0.8, holdout: 0.58 }), incumbent, margin });
    expect(d.status).toBe('keep');
    expect(d.delta).toBeCloseTo(0.1, 10);
    expect(d.holdoutDelta).toBeCloseTo(-0.02, 10);
    expect(d.reason).toContain('train +0.100');
  });

  it('discards a drop and a gain within the margin that is not shorter', () => {
    expect(decide({ candidate: side({ train: 0.6 }), incumbent, margin }).status).toBe('discard');
    expect(decide({ candidate: side({ train: 0.74 }), incumbent, margin }).status).toBe('discard');
    expect(decide({ candidate: side({ train: 0.74, chars: 1200 }), incumbent, margin }).status).toBe(
      'discard',
    );
  });

  it('does not keep a gain exactly equal to the margin (despite float rounding)', () => {
    // 0.75 - 0.7 is 0.05000000000000004 in floating point
    const d = decide({ candidate: side({ train: 0.75, chars: 1000 }), incumbent, margin });
    expect(d.status).toBe('discard');
    expect(decide({ candidate: side({ train: 0.75 + 1e-6 }), incumbent, margin }).status).toBe('keep');
  });

  it('keeps a tie within the margin only when the prompt is shorter', () => {
    expect(decide({ candidate: side({ train: 0.7, chars: 900 }), incumbent, margin }).status).toBe('keep');
    expect(decide({ candidate: side({ train: 0.66, chars: 900 }), incumbent, margin }).status).toBe('keep');
    expect(decide({ candidate: side({ train: 0.75, chars: 999 }), incumbent, margin }).status).toBe('keep');
    expect(decide({ candidate: side({ train: 0.64, chars: 900 }), incumbent, margin }).status).toBe(
      'discard',
    );
    expect(decide({ candidate: side({ train: 0.7, chars: 1000 }), incumbent, margin }).status).toBe(
      'discard',
    );
  });

  it('does not keep a shorter tie when the holdout dropped', () => {
    const d = decide({ candidate: side({ train: 0.71, holdout: 0.5, chars: 500 }), incumbent, margin });
    expect(d.status).toBe('discard');
  });

  it('fails on holdout when the train gain does not generalise', () => {
    const d = decide({ candidate: side({ train: 0.9, holdout: 0.56 }), incumbent, margin });
    expect(d.status).toBe('holdout_fail');
    expect(d.reason).toContain('holdout -0.040');
    // a holdout drop exactly at the margin still holds
    expect(decide({ candidate: side({ train: 0.9, holdout: 0.57 }), incumbent, margin }).status).toBe('keep');
  });

  it('gate_fail for an ineligible candidate, whatever its scores', () => {
    const d = decide({ candidate: side({ train: 1, holdout: 1, eligible: false }), incumbent, margin });
    expect(d.status).toBe('gate_fail');
    const both = decide({
      candidate: side({ eligible: false }),
      incumbent: side({ eligible: false }),
      margin,
    });
    expect(both.status).toBe('gate_fail');
  });

  it('any eligible candidate beats an ineligible incumbent', () => {
    const d = decide({
      candidate: side({ train: 0.2, holdout: 0.1, chars: 5000 }),
      incumbent: side({ eligible: false }),
      margin,
    });
    expect(d.status).toBe('keep');
  });

  it('treats the holdout condition as vacuous without holdout cases', () => {
    const noHoldout = side({ holdout: null });
    const d = decide({ candidate: side({ train: 0.8, holdout: null }), incumbent: noHoldout, margin });
    expect(d.status).toBe('keep');
    expect(d.holdoutDelta).toBeNull();
    expect(d.reason).toContain('no holdout cases');
    const tie = decide({
      candidate: side({ train: 0.7, holdout: null, chars: 10 }),
      incumbent: noHoldout,
      margin,
    });
    expect(tie.status).toBe('keep');
  });

  it('uses the train margin for train and the holdout margin for holdout', () => {
    const wide = { train: 0.01, holdout: 0.2 };
    expect(decide({ candidate: side({ train: 0.72, holdout: 0.45 }), incumbent, margin: wide }).status).toBe(
      'keep',
    );
    expect(decide({ candidate: side({ train: 0.72, holdout: 0.39 }), incumbent, margin: wide }).status).toBe(
      'holdout_fail',
    );
  });
});

describe('pickBestCandidate', () => {
  it('picks the best eligible by train score, ties to the shorter, then the first', () => {
    const a = { id: 'a', train: 0.8, eligible: false, chars: 100 };
    const b = { id: 'b', train: 0.7, eligible: true, chars: 300 };
    const c = { id: 'c', train: 0.7, eligible: true, chars: 200 };
    const d = { id: 'd', train: 0.7, eligible: true, chars: 200 };
    expect(pickBestCandidate([a, b, c, d])?.id).toBe('c');
    expect(pickBestCandidate([b, { id: 'e', train: 0.75, eligible: true, chars: 900 }])?.id).toBe('e');
  });

  it('returns the best ineligible one when none is eligible, undefined for none', () => {
    const a = { train: 0.5, eligible: false, chars: 100 };
    const b = { train: 0.6, eligible: false, chars: 100 };
    expect(pickBestCandidate([a, b])).toBe(b);
    expect(pickBestCandidate([])).toBeUndefined();
  });
});

describe('marginFrom', () => {
  it('uses a number for both splits', () => {
    expect(marginFrom(0.02, { train: [0.1, 0.9], holdout: [0.1, 0.9] })).toEqual({
      train: 0.02,
      holdout: 0.02,
    });
    expect(marginFrom(0, { train: [], holdout: [] })).toEqual({ train: 0, holdout: 0 });
  });

  it('auto: twice the sample standard deviation per split', () => {
    const m = marginFrom('auto', { train: [0.6, 0.62, 0.64], holdout: [0.5, 0.6, 0.7] });
    expect(m.train).toBeCloseTo(0.04, 10);
    expect(m.holdout).toBeCloseTo(0.2, 10);
  });

  it('auto: never below 0.005, also with one repeat or no holdout', () => {
    expect(marginFrom('auto', { train: [0.7, 0.7, 0.7], holdout: [] })).toEqual({
      train: 0.005,
      holdout: 0.005,
    });
    expect(marginFrom('auto', { train: [0.7], holdout: [0.4] })).toEqual({ train: 0.005, holdout: 0.005 });
    expect(marginFrom('auto', { train: [0.7, 0.701], holdout: [0.4, 0.4] }).train).toBe(0.005);
  });

  it('baseline is the mean of the repeats; no holdout gives null', () => {
    const b = baselineFrom({ train: [0.6, 0.62, 0.64], holdout: [] });
    expect(b.train).toBeCloseTo(0.62, 10);
    expect(b.holdout).toBeNull();
    expect(() => baselineFrom({ train: [], holdout: [] })).toThrow(/at least one/);
    expect(sampleStdDev([1, 3])).toBeCloseTo(Math.SQRT2, 10);
  });
});
