/**
 * The arithmetic of drift anchors (docs/design/judge-reliability.md): which outputs become anchors,
 * the judge's noise from re-reading them, when a later change is beyond that noise, and how the
 * noise reaches a paired decision — against values worked out by hand.
 */
import { describe, expect, it } from 'vitest';
import {
  assessDrift,
  decisionNoise,
  judgeNoise,
  judgeShare,
  pickAnchors,
} from '../../../src/loop/judge-drift.js';
import type { Evaluation } from '../../../src/scoring/index.js';

const WEIGHTS = { checks: 0.4, judge: 0.4, expectations: 0.2 };

function evaluation(): Evaluation {
  const cases = ['a', 'b', 'c', 'h'].map((id) => ({
    id,
    split: id === 'h' ? ('holdout' as const) : ('train' as const),
    checks: [],
    expectations: [],
  }));
  const outputs = cases.flatMap((c) =>
    [0, 1].map((sample) => ({
      caseId: c.id,
      sample,
      ok: !(c.id === 'c' && sample === 1),
      text: `${c.id}${sample}`,
    })),
  );
  return {
    samples: 2,
    cases,
    outputs,
    checks: [],
    judge: {
      criteria: [
        { key: 'clarity', weight: 1 },
        { key: 'tone', weight: 1 },
      ],
      // Every slot has a record (the failed c.1 too): a failed output must still never be an anchor.
      scores: cases.flatMap((c) =>
        [0, 1].map((sample) => ({ caseId: c.id, sample, criteria: { clarity: 3, tone: 5 }, reasoning: '' })),
      ),
    },
    gradings: [],
    weights: WEIGHTS,
  };
}

describe('pickAnchors', () => {
  it('takes judged train outputs only, every case once before any twice, scored on the judge signal', () => {
    const anchors = pickAnchors(evaluation(), 4, 7, (o) => `text of ${o.text}`);
    expect(anchors).toHaveLength(4);
    const ids = anchors.map((a) => `${a.caseId}.${a.sample}`);
    expect(ids.some((id) => id.startsWith('h.'))).toBe(false);
    expect(ids).not.toContain('c.1');
    // Three train cases: the first three anchors are one output of each.
    expect(new Set(anchors.slice(0, 3).map((a) => a.caseId))).toEqual(new Set(['a', 'b', 'c']));
    // clarity 3, tone 5 → mean 4 → (4 − 1)/4.
    for (const anchor of anchors) expect(anchor.baseline).toBeCloseTo(0.75);
    expect(anchors[0]?.text).toMatch(/^text of /);
  });

  it('is reproducible for a seed, and never asks for more than there are', () => {
    const one = pickAnchors(evaluation(), 3, 11, (o) => o.text);
    expect(pickAnchors(evaluation(), 3, 11, (o) => o.text)).toEqual(one);
    expect(pickAnchors(evaluation(), 50, 11, (o) => o.text)).toHaveLength(5);
    expect(pickAnchors(evaluation(), 0, 11, (o) => o.text)).toEqual([]);
    const { judge: _judge, ...unjudged } = evaluation();
    expect(pickAnchors(unjudged, 3, 11, (o) => o.text)).toEqual([]);
  });
});

describe('judgeNoise', () => {
  it('is the root mean square of the re-read changes', () => {
    // changes 0.25, −0.25, 0, 0 → sqrt((0.0625 + 0.0625) / 4) = 0.1768
    const readings = [
      { baseline: 0.5, now: 0.75 },
      { baseline: 0.5, now: 0.25 },
      { baseline: 1, now: 1 },
      { baseline: 0, now: 0 },
    ];
    expect(judgeNoise(readings)).toBeCloseTo(Math.sqrt(0.125 / 4), 10);
    expect(judgeNoise([])).toBe(0);
  });
});

describe('assessDrift', () => {
  it('flags a shift of every anchor beyond the noise band, with its 95% interval', () => {
    // changes 0.25, 0.25, 0.5, 0.25: mean 0.3125, sd 0.125, t(3, 0.975) = 3.182 → half 0.1989
    const readings = [0.25, 0.25, 0.5, 0.25].map((d) => ({ baseline: 0.25, now: 0.25 + d }));
    const drift = assessDrift(readings, 0.1);
    expect(drift.mean).toBeCloseTo(0.3125, 10);
    expect(drift.lo).toBeCloseTo(0.3125 - 3.182446 * (0.125 / 2), 4);
    expect(drift.hi).toBeCloseTo(0.3125 + 3.182446 * (0.125 / 2), 4);
    expect(drift.band).toBeCloseTo(0.1, 10); // 2 · 0.1 / √4
    expect(drift.beyondNoise).toBe(true);
  });

  it('does not flag a mean change the noise explains, nor one whose interval holds zero', () => {
    const small = [0.05, 0.05, 0.05, 0.05].map((d) => ({ baseline: 0.5, now: 0.5 + d }));
    // Mean 0.05, interval [0.05, 0.05] excludes zero, but 0.05 ≤ band 2 · 0.1 / 2 = 0.1.
    expect(assessDrift(small, 0.1).beyondNoise).toBe(false);
    const mixed = [0.5, -0.25, 0.5, -0.25].map((d) => ({ baseline: 0.5, now: 0.5 + d }));
    // Mean 0.125 > band 0 (a deterministic judge), but the interval spans zero.
    const drift = assessDrift(mixed, 0);
    expect(drift.lo ?? 0).toBeLessThan(0);
    expect(drift.beyondNoise).toBe(false);
  });

  it('flags any change of a judge with no noise when every anchor moved alike; none when nothing moved', () => {
    const moved = [0, 1, 2].map(() => ({ baseline: 0.5, now: 0.25 }));
    expect(assessDrift(moved, 0)).toMatchObject({ mean: -0.25, band: 0, beyondNoise: true });
    const still = [0, 1, 2].map(() => ({ baseline: 0.5, now: 0.5 }));
    expect(assessDrift(still, 0).beyondNoise).toBe(false);
  });

  it('decides one anchor by the size of its change alone', () => {
    expect(assessDrift([{ baseline: 0.5, now: 0.75 }], 0.1)).toMatchObject({
      lo: null,
      hi: null,
      beyondNoise: true,
    });
    expect(assessDrift([{ baseline: 0.5, now: 0.6 }], 0.1).beyondNoise).toBe(false);
    expect(assessDrift([], 0.1).beyondNoise).toBe(false);
  });
});

describe('the judge noise in a paired decision', () => {
  it("takes the judge's share of the total from the signals present", () => {
    expect(judgeShare(WEIGHTS, { checks: 0.5, judge: 0.5, expectations: 0.5 })).toBeCloseTo(0.4);
    expect(judgeShare(WEIGHTS, { checks: 0.5, judge: 0.5 })).toBeCloseTo(0.5);
    expect(judgeShare(WEIGHTS, { judge: 0.5 })).toBeCloseTo(1);
    expect(judgeShare({ checks: 1, judge: 0, expectations: 0 }, { checks: 0.5, judge: 0.5 })).toBe(0);
  });

  it('scales the per-output noise by that share and by the cases and samples a decision averages', () => {
    // 0.2 · 0.5 / √(4 · 1) = 0.05; with 2 samples each / √8.
    expect(decisionNoise(0.2, 0.5, 4, 1)).toBeCloseTo(0.05, 10);
    expect(decisionNoise(0.2, 0.5, 4, 2)).toBeCloseTo(0.1 / Math.sqrt(8), 10);
    expect(decisionNoise(0, 0.5, 4, 1)).toBe(0);
  });
});
