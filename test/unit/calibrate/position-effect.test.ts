import { describe, expect, it } from 'vitest';
import { arrangeForLayout, positionEffect } from '../../../src/calibrate/position-effect.js';
import { shuffleSeeded } from '../../../src/judge/seeded-shuffle.js';

const pair = (first: [number, number], second: [number, number]) => ({
  first: { score: first[0], place: first[1] },
  second: { score: second[0], place: second[1] },
});

describe('positionEffect', () => {
  it('fits the change from last place to first through the origin, with a Student-t interval', () => {
    // Four outputs in two opposite orders; whichever stands first gets +2.
    const effect = positionEffect([
      pair([5, 0], [3, 3]),
      pair([3, 1], [3, 2]),
      pair([3, 2], [3, 1]),
      pair([3, 3], [5, 0]),
    ]);
    // β = Σ moved·change / Σ moved² = 4 / (20/9) = 1.8; residuals 0.8 over 3 degrees of freedom.
    expect(effect?.estimate).toBeCloseTo(1.8, 10);
    const half = 3.182446305 * Math.sqrt(0.8 / 3 / (20 / 9));
    expect(effect?.interval[0]).toBeCloseTo(1.8 - half, 6);
    expect(effect?.interval[1]).toBeCloseTo(1.8 + half, 6);
  });

  it('gives exactly zero for a judge that ignores the order, and a negative effect for one that favours the end', () => {
    expect(positionEffect([pair([4, 0], [4, 2]), pair([2, 1], [2, 1]), pair([3, 2], [3, 0])])).toEqual({
      estimate: 0,
      interval: [0, 0],
    });
    const late = positionEffect([pair([3, 0], [4, 1]), pair([4, 1], [3, 0])]);
    expect(late).toEqual({ estimate: -1, interval: [-1, -1] });
  });

  it('says nothing with one output or when no output moved', () => {
    expect(positionEffect([pair([3, 0], [3, 0])])).toBeNull();
    expect(positionEffect([pair([3, 0], [4, 0]), pair([2, 1], [2, 1])])).toBeNull();
  });
});

describe('arrangeForLayout', () => {
  it('hands the judge an order its seeded shuffle turns into the one wanted', () => {
    const wanted = ['d', 'a', 'c', 'e', 'b', 'f', 'g'];
    for (const seed of [1, 2, 77])
      expect(shuffleSeeded(arrangeForLayout(wanted, seed), seed)).toEqual(wanted);
  });
});
