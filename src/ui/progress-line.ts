/**
 * The run's closing summary and the one colour per iteration status. Pure formatters: colours
 * and width come in, a string goes out, and the terminal module prints it. The row of a
 * finished iteration is event-text.ts's formatIterationLine.
 */
import type { IterationStatus } from '../run/events.js';
import { ITERATION_STATUSES } from '../run/events.js';
import { formatField, visibleWidth, wrapWords } from './fit-text.js';
import { describePool, type PoolSummary } from '../run/pool-summary.js';

type Paint = (text: string) => string;

/** The subset of picocolors the formatters use (a `Colors` from terminal.ts fits). */
export interface ProgressColors {
  green: Paint;
  red: Paint;
  yellow: Paint;
  cyan: Paint;
  dim: Paint;
  bold: Paint;
}

/** One colour per status, for every terminal view (show, watch, the run's progress lines). */
export function paintStatus(status: IterationStatus, colors: ProgressColors): Paint {
  switch (status) {
    case 'keep':
      return colors.green;
    case 'gate_fail':
    case 'error':
      return colors.red;
    case 'holdout_fail':
    case 'inconclusive':
    case 'interrupted':
      return colors.yellow;
    case 'baseline':
    case 'pooled':
      return colors.cyan;
    case 'discard':
    case 'screened_out':
    case 'duplicate':
      return colors.dim;
  }
}

export interface SplitScores {
  train: number;
  holdout: number | null;
  /** The sealed test split's score (final evaluation only); absent when the experiment has none. */
  test?: number | null;
}

export interface RunSummary {
  runId: string;
  /** The fresh re-evaluation of baseline and best at the end; null when the run ended before it. */
  final: { baseline: SplitScores; best: SplitScores } | null;
  /** The figures the decisions used during the run. */
  during: { baseline: SplitScores; best: SplitScores };
  counts: Partial<Record<IterationStatus, number>>;
  /** Model calls screening spared (docs/design/paired-acceptance.md). */
  callsSaved: number;
  totalCostUsd: number | null;
  /**
   * The ledger per role (docs/design/cost-engine.md), one line per role that made calls
   * (format-ledger.ts).
   */
  ledger?: string[];
  stop: { reason: string; message: string };
  /** null when commits are off (not a git repository). */
  branch: string | null;
  reportPath: string;
  simulated: boolean;
  /** The pareto search's pool (docs/design/pareto-search.md); absent for a greedy run. */
  pool?: PoolSummary;
  /** The warnings the run gave while it ran (they scrolled by): the count and the first. */
  warnings?: string[];
  /** Whether the best is a kept change, not the starting prompt (what `diff` and `apply` need). */
  improved?: boolean;
}

/** Where to look next: the commands that review this run, then continue or take its best. */
export function nextSteps(summary: Pick<RunSummary, 'runId' | 'improved' | 'stop'>): string[] {
  const id = summary.runId;
  const steps = [`autoresearch show ${id}`];
  if (summary.improved) steps.push(`autoresearch diff ${id}`, `autoresearch apply ${id}`);
  if (summary.stop.reason === 'interrupted' || summary.stop.reason === 'stop_requested')
    steps.push(`autoresearch resume ${id}`);
  else if (['iterations', 'hours', 'usd'].includes(summary.stop.reason))
    steps.push(`autoresearch resume ${id} --${summary.stop.reason} +N`);
  return steps;
}

function describeWarnings(warnings: readonly string[]): string {
  const [first] = warnings;
  if (first === undefined) return '';
  const more = warnings.length === 1 ? 'one while it ran' : `${warnings.length} while it ran; the first`;
  return `${more}: ${first}`;
}

// Every status but the baseline's, in the journal's order.
const COUNTED: IterationStatus[] = ITERATION_STATUSES.filter((status) => status !== 'baseline');

/** Columns before the summary's values. */
export const SUMMARY_LABEL_WIDTH = 24;

/** The summary's lines wrap between words to fit `width` (no limit when left out). */
export function formatRunSummary(
  summary: RunSummary,
  colors: ProgressColors,
  width = Number.POSITIVE_INFINITY,
): string {
  const label = (text: string) => `  ${text.padEnd(SUMMARY_LABEL_WIDTH - 2)}`;
  const iterations = COUNTED.reduce((sum, status) => sum + (summary.counts[status] ?? 0), 0);
  const counts = COUNTED.filter((status) => (summary.counts[status] ?? 0) > 0)
    .map((status) => `${summary.counts[status]} ${status}`)
    .join(', ');
  const fields: [string, string | string[]][] = [
    [
      'final check (fresh)',
      summary.final
        ? scores(summary.final.baseline, summary.final.best)
        : colors.dim('not run: the run ended before it'),
    ],
    ['during the run', scores(summary.during.baseline, summary.during.best)],
    [
      'iterations',
      `${iterations}${counts === '' ? '' : `: ${counts}`}${summary.callsSaved > 0 ? `; screening saved ${summary.callsSaved} calls` : ''}`,
    ],
    ...(summary.pool ? [['pool', describePool(summary.pool)] as [string, string]] : []),
    ['cost', cost(summary.totalCostUsd)],
    ...(summary.ledger ?? []).map((line, i): [string, string] => [i === 0 ? 'ledger' : '', line]),
    ['branch', summary.branch ?? colors.dim('none (commits are off: not a git repository)')],
    ['report', summary.reportPath],
  ];
  if (summary.warnings !== undefined && summary.warnings.length > 0)
    fields.push(['warnings', colors.yellow(describeWarnings(summary.warnings))]);
  if (summary.simulated)
    fields.push([
      'simulated',
      colors.yellow('yes: the sim provider produced these results; they say nothing about real models'),
    ]);
  // One command a line, so each can be copied whole.
  for (const [i, step] of nextSteps(summary).entries()) fields.push([i === 0 ? 'next' : '', step]);
  const title = `Run ${summary.runId} stopped (${summary.stop.reason}): ${summary.stop.message}`;
  const lines = [
    colors.bold(wrapWords(title, width, 2)),
    ...fields.map(([name, value]) => {
      const parts = typeof value === 'string' ? [value] : value;
      const whole = parts.join('   ');
      if (parts.length === 1 || visibleWidth(label(name) + whole) <= width)
        return formatField(label(name), whole, width);
      return parts.map((part, i) => formatField(i === 0 ? label(name) : label(''), part, width)).join('\n');
    }),
  ];
  return lines.join('\n');
}

/**
 * Test (when the experiment has sealed test cases: the figure no decision saw leads), train
 * and holdout: kept whole, on one line when they fit and one under the other when not.
 */
function scores(baseline: SplitScores, best: SplitScores): string[] {
  const pair = (from: number, to: number) => `${from.toFixed(3)} → ${to.toFixed(3)} (${signed(to - from)})`;
  const train = `train ${pair(baseline.train, best.train)}`;
  const holdout =
    baseline.holdout === null || best.holdout === null
      ? 'holdout: none'
      : `holdout ${pair(baseline.holdout, best.holdout)}`;
  if (baseline.test === undefined && best.test === undefined) return [train, holdout];
  const test =
    baseline.test === null || baseline.test === undefined || best.test === null || best.test === undefined
      ? 'test: no score'
      : `test ${pair(baseline.test, best.test)}`;
  return [test, train, holdout];
}

function signed(value: number | null): string {
  if (value === null) return '-';
  const rounded = Number(value.toFixed(3));
  return `${rounded > 0 ? '+' : rounded < 0 ? '-' : '±'}${Math.abs(rounded).toFixed(3)}`;
}

function cost(value: number | null): string {
  return value === null ? '$?' : `$${value.toFixed(value < 10 ? 3 : 2)}`;
}
