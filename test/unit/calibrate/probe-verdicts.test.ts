import { describe, expect, it } from 'vitest';
import { lengthVerdict, orderVerdict, repeatVerdict } from '../../../src/calibrate/probe-verdicts.js';
import { wilsonInterval } from '../../../src/stats/wilson-interval.js';

describe('orderVerdict', () => {
  it('calls a shift a bias only when the interval excludes zero and it reaches a quarter point', () => {
    const early = orderVerdict({ estimate: 0.3, interval: [0.05, 0.55] }, 12);
    expect(early).toEqual({
      biased: true,
      verdict:
        'position bias: the judge favours earlier outputs — moving an output from last place to first changes its score by +0.300 [+0.050, +0.550] on the 1–5 scale, over 12 outputs judged in two opposite orders',
    });
    const late = orderVerdict({ estimate: -0.5, interval: [-0.8, -0.2] }, 12);
    expect(late.biased).toBe(true);
    expect(late.verdict).toMatch(/^position bias: the judge favours later outputs/);
  });

  it('passes a small or uncertain shift, and says when the interval is too wide to be sure', () => {
    const small = orderVerdict({ estimate: 0.1, interval: [0.05, 0.15] }, 20);
    expect(small.biased).toBe(false);
    expect(small.verdict).toMatch(/^no position bias detected: a small position effect below 0.25: /);
    expect(small.verdict).not.toMatch(/too wide/);
    const wide = orderVerdict({ estimate: 0.3, interval: [-0.1, 0.7] }, 6);
    expect(wide.biased).toBe(false);
    expect(wide.verdict).toMatch(/too wide to rule out a shift of 0.25 — probe more outputs to be sure$/);
  });
});

describe('lengthVerdict', () => {
  it('flags a judge that rewards padding, and not one that marks the filler down', () => {
    expect(lengthVerdict({ estimate: 0.9, interval: [0.7, 1.1] }, 12)).toEqual({
      biased: true,
      verdict:
        'length bias: the judge rewards length — padding every output with neutral filler, half its length again, changed scores by +0.900 [+0.700, +1.100] on average on the 1–5 scale, over 12 outputs',
    });
    const down = lengthVerdict({ estimate: -0.6, interval: [-0.9, -0.3] }, 12);
    expect(down.biased).toBe(false);
    expect(down.verdict).toMatch(/^no length bias: the judge marks the filler down — /);
    const none = lengthVerdict({ estimate: 0, interval: [0, 0] }, 12);
    expect(none.biased).toBe(false);
    expect(none.verdict).toMatch(/^no length bias detected: .*over 12 outputs$/);
  });

  it('says a small shift whose interval lies wholly on one side is there, not "not detected"', () => {
    // Seen in a real calibration: [-0.359, -0.016] was reported as "no length bias detected".
    const down = lengthVerdict({ estimate: -0.19, interval: [-0.359, -0.016] }, 12);
    expect(down.biased).toBe(false);
    expect(down.verdict).toMatch(/^no length bias: the judge marks the filler down — /);
    const up = lengthVerdict({ estimate: 0.12, interval: [0.02, 0.22] }, 12);
    expect(up.biased).toBe(false);
    expect(up.verdict).toMatch(/^no length bias that matters: a small reward for length, below 0.25 — /);
  });
});

describe('repeatVerdict', () => {
  const verdict = (identical: number, outputs: number) =>
    repeatVerdict(identical, outputs, 3, wilsonInterval(identical, outputs));

  it('is consistent from 80% identical, inconsistent when the interval lies below it, unclear between', () => {
    expect(verdict(10, 12)).toEqual({
      biased: false,
      verdict: 'consistent: 10 of 12 outputs (83% [55%, 95%]) got identical scores in all 3 judgings',
    });
    expect(verdict(8, 12)).toEqual({
      biased: false,
      verdict:
        'no clear inconsistency: 8 of 12 outputs (67% [39%, 86%]) got identical scores in all 3 judgings, not clearly below 80%',
    });
    const noisy = verdict(3, 12);
    expect(noisy.biased).toBe(true);
    expect(noisy.verdict).toMatch(/^inconsistent: only 3 of 12 outputs \(25% \[9%, 53%\]\)/);
  });
});
