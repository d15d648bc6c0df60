/**
 * The score chart and the trend sparklines as plain geometry (coordinates and SVG path
 * strings), computed here so the page's script only places shapes and never does maths.
 * Every attempt is a point; an attempt without a score sits on the floor of the chart. A
 * paired decision (docs/design/paired-acceptance.md) adds a whisker: its interval of the train mean
 * difference, placed at the incumbent's score it was compared with, so a whisker wholly above the
 * best-so-far step is a clear gain and one crossing it is not.
 */
import type { IterationStatus } from '../run/events.js';

export interface ChartInput {
  iteration: number;
  status: IterationStatus;
  train: number | null;
  /** The incumbent's train score once the iteration was decided. */
  best: number | null;
  /** The incumbent's holdout score once the iteration was decided. */
  bestHoldout: number | null;
  /** A paired decision's train interval (`lo`..`hi` around `mean`) and the incumbent score `base` it is relative to. */
  interval: { base: number; lo: number; hi: number; mean: number } | null;
}

export interface ChartInterval {
  iteration: number;
  x: number;
  /** Where base + hi, base + lo and base + mean fall. */
  top: number;
  bottom: number;
  mid: number;
  /** above: the whole interval is a gain; below: a loss; across: zero is inside. */
  side: 'above' | 'below' | 'across';
}

export interface ChartPoint {
  iteration: number;
  status: IterationStatus;
  x: number;
  y: number;
  scored: boolean;
}

export interface ChartModel {
  width: number;
  height: number;
  plot: { left: number; top: number; right: number; bottom: number };
  yTicks: { y: number; label: string }[];
  xTicks: { x: number; label: string }[];
  points: ChartPoint[];
  intervals: ChartInterval[];
  bestPath: string | null;
  holdoutPath: string | null;
  bandPath: string | null;
}

const WIDTH = 760;
const HEIGHT = 280;
const PLOT = { left: 46, top: 14, right: WIDTH - 18, bottom: HEIGHT - 32 };
const STEPS = [0.01, 0.02, 0.025, 0.05, 0.1, 0.2, 0.25];

export function buildChart(inputs: readonly ChartInput[], margin: number | null): ChartModel {
  const iterations = inputs.map((i) => i.iteration);
  const first = Math.min(...iterations, 0);
  const last = Math.max(...iterations, first + 1);
  const values = inputs
    .flatMap((i) => [i.train, i.best, i.bestHoldout])
    .filter((v): v is number => v !== null);
  const bests = inputs.map((i) => i.best).filter((v): v is number => v !== null);
  if (margin !== null) values.push(...bests.map((b) => b + margin), ...bests.map((b) => b - margin));
  for (const { interval } of inputs)
    if (interval) values.push(interval.base + interval.lo, interval.base + interval.hi);
  const { lo, hi, step } = niceRange(values);
  const x = (iteration: number) =>
    round(PLOT.left + ((iteration - first) / (last - first)) * (PLOT.right - PLOT.left));
  const y = (score: number) =>
    round(PLOT.bottom - ((clamp(score, lo, hi) - lo) / (hi - lo)) * (PLOT.bottom - PLOT.top));

  const yTicks: ChartModel['yTicks'] = [];
  for (let v = lo; v <= hi + step / 2; v += step)
    yTicks.push({ y: y(v), label: v.toFixed(step < 0.05 ? 3 : 2) });
  const every = Math.max(1, Math.ceil((last - first + 1) / 16));
  const xTicks: ChartModel['xTicks'] = [];
  for (let i = first; i <= last; i += every) xTicks.push({ x: x(i), label: String(i) });

  const points = inputs.map((input) => ({
    iteration: input.iteration,
    status: input.status,
    x: x(input.iteration),
    y: input.train === null ? PLOT.bottom : y(input.train),
    scored: input.train !== null,
  }));
  const intervals = inputs.flatMap(({ iteration, interval }): ChartInterval[] =>
    interval
      ? [
          {
            iteration,
            x: x(iteration),
            top: y(interval.base + interval.hi),
            bottom: y(interval.base + interval.lo),
            mid: y(interval.base + interval.mean),
            side: interval.lo > 0 ? 'above' : interval.hi < 0 ? 'below' : 'across',
          },
        ]
      : [],
  );
  const bestSteps = steps(inputs.map((i) => [i.iteration, i.best]));
  const holdoutSteps = steps(inputs.map((i) => [i.iteration, i.bestHoldout]));
  return {
    width: WIDTH,
    height: HEIGHT,
    plot: { ...PLOT },
    yTicks,
    xTicks,
    points,
    intervals,
    bestPath: stepPath(bestSteps, x, y),
    holdoutPath: stepPath(holdoutSteps, x, y),
    bandPath: margin === null || margin <= 0 ? null : bandPath(bestSteps, margin, x, y),
  };
}

type Step = [iteration: number, value: number];

/** The points where a step line is defined, carried forward until the value changes. */
function steps(series: readonly [number, number | null][]): Step[] {
  return series.filter((s): s is Step => s[1] !== null);
}

function stepPath(
  points: readonly Step[],
  x: (i: number) => number,
  y: (v: number) => number,
): string | null {
  const [head, ...rest] = points;
  if (!head) return null;
  let path = `M${x(head[0])},${y(head[1])}`;
  for (const [iteration, value] of rest) path += ` H${x(iteration)} V${y(value)}`;
  // Extend the last level a little so a single point still draws a visible segment.
  const end = points.at(-1) ?? head;
  return `${path} H${x(end[0]) + 8}`;
}

function bandPath(
  points: readonly Step[],
  margin: number,
  x: (i: number) => number,
  y: (v: number) => number,
): string | null {
  if (points.length === 0) return null;
  const upper = points.map(([i, v]) => [i, v + margin] as Step);
  const lower = points.map(([i, v]) => [i, v - margin] as Step).reverse();
  const endX = x((points.at(-1) as Step)[0]) + 8;
  let path = `M${x(upper[0]![0])},${y(upper[0]![1])}`;
  for (const [i, v] of upper.slice(1)) path += ` H${x(i)} V${y(v)}`;
  path += ` H${endX} V${y(lower[0]![1])}`;
  for (let k = 0; k < lower.length - 1; k++) {
    // Walking back, each level runs left to the iteration where it began.
    const [i] = lower[k]!;
    const next = lower[k + 1]!;
    path += ` H${x(i)} V${y(next[1])}`;
  }
  return `${path} H${x(upper[0]![0])} Z`;
}

function niceRange(values: readonly number[]): { lo: number; hi: number; step: number } {
  if (values.length === 0) return { lo: 0, hi: 1, step: 0.2 };
  let lo = Math.max(0, Math.min(...values) - 0.02);
  let hi = Math.min(1, Math.max(...values) + 0.02);
  if (hi - lo < 0.1) {
    const mid = (hi + lo) / 2;
    lo = Math.max(0, mid - 0.05);
    hi = Math.min(1, lo + 0.1);
    lo = Math.max(0, hi - 0.1);
  }
  const step = STEPS.find((s) => (hi - lo) / s <= 6) ?? 0.25;
  return { lo: floorTo(lo, step), hi: Math.min(1, ceilTo(hi, step)), step };
}

export interface Sparkline {
  width: number;
  height: number;
  path: string | null;
  /** The last defined value, drawn as a dot. */
  last: { x: number; y: number } | null;
}

const SPARK_W = 140;
const SPARK_H = 30;

/** A small line over one value per iteration, joined across iterations that have none. */
export function buildSparkline(values: readonly (number | null)[], min: number, max: number): Sparkline {
  const n = values.length;
  const x = (k: number) => round(3 + (n <= 1 ? (SPARK_W - 6) / 2 : (k / (n - 1)) * (SPARK_W - 6)));
  const y = (v: number) =>
    round(SPARK_H - 3 - ((clamp(v, min, max) - min) / (max - min || 1)) * (SPARK_H - 6));
  const points = values.flatMap((value, k) => (value === null ? [] : [{ x: x(k), y: y(value) }]));
  const path = points.map((p, k) => `${k === 0 ? 'M' : 'L'}${p.x},${p.y}`).join(' ');
  return { width: SPARK_W, height: SPARK_H, path: path === '' ? null : path, last: points.at(-1) ?? null };
}

function clamp(v: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, v));
}

function round(v: number): number {
  return Math.round(v * 10) / 10;
}

function floorTo(v: number, step: number): number {
  return Math.round(Math.floor(v / step + 1e-9) * step * 1e6) / 1e6;
}

function ceilTo(v: number, step: number): number {
  return Math.round(Math.ceil(v / step - 1e-9) * step * 1e6) / 1e6;
}
