import { describe, expect, it } from 'vitest';
import { ordinalAlpha } from '../../../src/stats/krippendorff.js';

describe('ordinalAlpha', () => {
  it('matches the worked example of Krippendorff (2011): four observers, twelve units, missing values', () => {
    // Rows are units; columns observers A–D (null: no rating). The paper gives ordinal alpha 0.815.
    const units = [
      [1, 1, null, 1],
      [2, 2, 3, 2],
      [3, 3, 3, 3],
      [3, 3, 3, 3],
      [2, 2, 2, 2],
      [1, 2, 3, 4],
      [4, 4, 4, 4],
      [1, 1, 2, 1],
      [2, 2, 2, 2],
      [null, 5, 5, 5],
      [null, null, 1, 1],
      [null, 3, null, null],
    ];
    expect(ordinalAlpha(units)).toBeCloseTo(0.815, 3);
  });

  it('two values: 1 − (n−1)·(o12+o21)/(2·n1·n2) = 1 − 5·2/18 = 4/9', () => {
    expect(
      ordinalAlpha([
        [1, 1],
        [1, 2],
        [2, 2],
      ]),
    ).toBeCloseTo(4 / 9, 10);
  });

  it('three values use the ordinal distances (hand-computed 7/9)', () => {
    // o11=2, o23=o32=1, o33=2; n=(2,1,3); δ²(1,2)=2.25, δ²(2,3)=4, δ²(1,3)=12.25;
    // observed 2·1·4 = 8, expected 2·(2·2.25 + 3·4 + 6·12.25) = 180; alpha = 1 − 5·8/180.
    expect(
      ordinalAlpha([
        [1, 1],
        [2, 3],
        [3, 3],
      ]),
    ).toBeCloseTo(7 / 9, 10);
  });

  it('is 1 when every judge gives every unit the same score and the scores vary', () => {
    expect(
      ordinalAlpha([
        [1, 1, 1],
        [4, 4, 4],
        [5, 5, 5],
        [2, 2, 2],
      ]),
    ).toBe(1);
  });

  it('is null when there is one value only: nothing varies, so agreement is undefined', () => {
    expect(
      ordinalAlpha([
        [3, 3],
        [3, 3],
        [3, 3],
      ]),
    ).toBeNull();
  });

  it('is null without pairable units, and leaves a unit with one rating out', () => {
    expect(ordinalAlpha([])).toBeNull();
    expect(ordinalAlpha([[1], [5, null]])).toBeNull();
    expect(
      ordinalAlpha([
        [1, 1],
        [1, 2],
        [2, 2],
        [5, null],
      ]),
    ).toBeCloseTo(4 / 9, 10);
  });

  it('falls below 0 when the judges disagree systematically', () => {
    const alpha = ordinalAlpha([
      [1, 5],
      [5, 1],
      [1, 5],
      [5, 1],
    ]);
    expect(alpha).not.toBeNull();
    expect(alpha as number).toBeLessThan(0);
  });

  it('ranks non-integer means (judges with samples) by their order only', () => {
    const integers = ordinalAlpha([
      [1, 2],
      [2, 3],
      [3, 3],
    ]);
    expect(
      ordinalAlpha([
        [1.5, 2],
        [2, 3.5],
        [3.5, 3.5],
      ]),
    ).toBeCloseTo(integers as number, 10);
  });
});
