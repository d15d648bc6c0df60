import { describe, expect, it } from 'vitest';
import { buildChart, buildSparkline, type ChartInput } from '../../../src/report/chart-geometry.js';

const inputs: ChartInput[] = [
  { iteration: 0, status: 'baseline', train: 0.5, best: 0.5, bestHoldout: 0.45, interval: null },
  { iteration: 1, status: 'discard', train: 0.48, best: 0.5, bestHoldout: 0.45, interval: null },
  { iteration: 2, status: 'error', train: null, best: 0.5, bestHoldout: 0.45, interval: null },
  { iteration: 3, status: 'keep', train: 0.6, best: 0.6, bestHoldout: 0.58, interval: null },
];

describe('buildChart', () => {
  const chart = buildChart(inputs, 0.02);

  it('draws one point per iteration, unscored ones on the floor', () => {
    expect(chart.points.map((p) => [p.iteration, p.scored])).toEqual([
      [0, true],
      [1, true],
      [2, false],
      [3, true],
    ]);
    expect(chart.points[2]?.y).toBe(chart.plot.bottom);
    const [baseline, discard, , keep] = chart.points;
    expect(keep!.y).toBeLessThan(baseline!.y);
    expect(discard!.y).toBeGreaterThan(baseline!.y);
    expect(chart.points.map((p) => p.x)).toEqual([...chart.points.map((p) => p.x)].sort((a, b) => a - b));
  });

  it('draws the best-so-far and holdout lines as steps, with the noise band around the best', () => {
    expect(chart.bestPath).toMatch(/^M46,[\d.]+ H[\d.]+ V[\d.]+ H[\d.]+ V[\d.]+ H[\d.]+ V[\d.]+ H[\d.]+$/);
    expect(chart.holdoutPath).not.toBeNull();
    expect(chart.bandPath).toMatch(/ Z$/);
    expect(buildChart(inputs, null).bandPath).toBeNull();
  });

  it('labels a y axis that covers every value with round ticks', () => {
    const labels = chart.yTicks.map((t) => Number(t.label));
    expect(Math.min(...labels)).toBeLessThanOrEqual(0.43);
    expect(Math.max(...labels)).toBeGreaterThanOrEqual(0.62);
    expect(chart.xTicks.map((t) => t.label)).toEqual(['0', '1', '2', '3']);
  });

  it("draws a paired decision's interval as a whisker placed at the incumbent it was compared with", () => {
    const paired = buildChart(
      [
        inputs[0]!,
        { ...inputs[1]!, interval: { base: 0.5, lo: -0.08, hi: 0.04, mean: -0.02 } },
        { ...inputs[3]!, interval: { base: 0.5, lo: 0.03, hi: 0.17, mean: 0.1 } },
      ],
      null,
    );
    const [across, above] = paired.intervals;
    expect(paired.intervals.map((i) => [i.iteration, i.side])).toEqual([
      [1, 'across'],
      [3, 'above'],
    ]);
    const baseline = paired.points[0]!.y;
    expect(across!.top).toBeLessThan(baseline);
    expect(across!.bottom).toBeGreaterThan(baseline);
    expect(above!.bottom).toBeLessThan(baseline);
    expect(above!.x).toBe(paired.points[2]!.x);
    expect(above!.top).toBeLessThan(above!.mid);
    // The y axis reaches the whisker's ends (0.42 .. 0.67).
    const labels = paired.yTicks.map((t) => Number(t.label));
    expect(Math.min(...labels)).toBeLessThanOrEqual(0.42);
    expect(Math.max(...labels)).toBeGreaterThanOrEqual(0.67);
    expect(chart.intervals).toEqual([]);
  });

  it('handles an empty run', () => {
    const empty = buildChart([], null);
    expect(empty.points).toEqual([]);
    expect(empty.bestPath).toBeNull();
  });
});

describe('buildSparkline', () => {
  it('joins the defined values and marks the last one', () => {
    const spark = buildSparkline([1, null, 3, 5], 1, 5);
    expect(spark.path?.match(/[ML]/g)).toEqual(['M', 'L', 'L']);
    expect(spark.last).toEqual({ x: 137, y: 3 });
    expect(buildSparkline([null, null], 0, 1)).toMatchObject({ path: null, last: null });
  });
});
