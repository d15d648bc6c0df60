/**
 * Run events as terminal text, one function per event kind (the shape of zx's log). `run`'s
 * live output (run-renderer.ts) and `watch` (watch-view.ts) both take their words from here
 * and choose only which kinds they show and where each goes: the status line, stdout,
 * stderr, a line of the watch log.
 */
import { cutText, toOneLine } from '../loop/text.js';
import type { EventOf, RunEvent, RunEventType } from '../run/events.js';
import type { IterationRecord, RunState } from '../run/run-state.js';
import { describeDriftCheck, describeJudgeNoise } from './format-anchors.js';
import {
  describePhase,
  describeRow,
  describeScreen,
  formatInterval,
  formatTally,
} from './format-decision.js';
import { formatDuration, score, signed } from './format-figures.js';
import { describeSpendAlert } from './format-ledger.js';
import { formatUsd } from './format-runs.js';
import { paintStatus, type ProgressColors } from './progress-line.js';
import type { Colors } from './terminal.js';

export interface EventTextOptions {
  width: number;
  colors: Colors;
  /** The run folded through the event. */
  state: RunState;
}

export interface EventText {
  /** One line; parts of it may already carry colour (a row's status). */
  text: string;
  tone: 'plain' | 'dim' | 'warn' | 'bold';
  /** About an iteration under way (a phase, a batch wait, a judge reading), not a record of one. */
  during: boolean;
}

type Formatters = {
  [K in RunEventType]?: (event: EventOf<K>, options: EventTextOptions) => EventText | undefined;
};

const line = (text: string, tone: EventText['tone'] = 'plain', during = false): EventText => ({
  text,
  tone,
  during,
});

const FORMATTERS: Formatters = {
  run_started: (event, { colors: c }) => {
    const sim = event.simulated.length > 0 ? c.yellow(` [simulated: ${event.simulated.join(', ')}]`) : '';
    return line(`run started: ${event.experiment} (${event.kind})${sim}`);
  },
  run_resumed: (event) => line(`run resumed${event.rebaseline ? ' with a new baseline' : ''}`),
  phase: (event) => {
    if (event.phase === 'final')
      return line('final check: baseline and best evaluated again with fresh samples', 'dim', true);
    const progress =
      event.done !== undefined && event.total !== undefined ? ` ${event.done}/${event.total}` : '';
    return line(`iteration ${event.iteration}: ${describePhase(event.phase, false)}${progress}`, 'dim', true);
  },
  batch_submitted: (event) => {
    const where = event.iteration === undefined ? '' : `iteration ${event.iteration}: `;
    return line(
      `${where}waiting on ${event.provider} batch ${event.batchId} (${event.requests} requests)`,
      'dim',
      true,
    );
  },
  iteration_finished: (event, options) => {
    const record = options.state.iterations.find((r) => r.iteration === event.iteration);
    return record === undefined ? undefined : line(formatIterationLine(record, options));
  },
  warning: (event) => line(`warning: ${event.message}`, 'warn'),
  spend_alert: (event) => line(describeSpendAlert(event), 'warn'),
  judge_noise: (event) =>
    line(
      `iteration ${event.iteration}: judge ${describeJudgeNoise({ ...event, anchors: event.anchors.length })}`,
      'dim',
      true,
    ),
  judge_drift: (event) =>
    line(
      `iteration ${event.iteration}: judge ${describeDriftCheck({ ...event, anchors: event.anchors.length })}`,
      event.beyondNoise ? 'warn' : 'dim',
      true,
    ),
  final_evaluation: (event) => {
    // The sealed test split, when the experiment has one, leads: no decision saw it.
    const test =
      event.baseline.test === undefined && event.best.test === undefined
        ? ''
        : `${pair('test', event.baseline.test ?? null, event.best.test ?? null)}, `;
    return line(
      `final check (fresh): ${test}${pair('train', event.baseline.train, event.best.train)}, ${pair('holdout', event.baseline.holdout, event.best.holdout)}`,
    );
  },
  run_stopped: (event) =>
    line(`run stopped (${event.reason.replaceAll('_', ' ')}): ${event.message}`, 'bold'),
};

/** The event's text, or undefined for kinds a person is not shown (the journal's bookkeeping). */
export function formatEvent(event: RunEvent, options: EventTextOptions): EventText | undefined {
  const format = FORMATTERS[event.type] as
    | ((event: RunEvent, options: EventTextOptions) => EventText | undefined)
    | undefined;
  return format?.(event, options);
}

export function paintEventText(text: EventText, colors: Colors, shown = text.text): string {
  if (text.tone === 'dim') return colors.dim(shown);
  if (text.tone === 'warn') return colors.yellow(shown);
  if (text.tone === 'bold') return colors.bold(shown);
  return shown;
}

/** The fixed columns of an iteration line: header, and the cell, already padded to its width. */
const ITERATION_COLUMNS: readonly [string, (r: IterationRecord) => string][] = [
  ['ITER'.padStart(4), (r) => String(r.iteration).padStart(4)],
  ['STATUS'.padEnd(12), (r) => r.status.padEnd(12)],
  ['TRAIN', (r) => score(r.train).padStart(5)],
  ['BEST'.padEnd(10), (r) => `best ${score(r.best)}`],
  [' DELTA', (r) => signed(r.delta).padStart(6)],
  ['  COST', (r) => formatUsd(r.costUsd).padStart(6)],
  ['   TIME', (r) => formatDuration(r.seconds).padStart(7)],
];

/** The column headers over `formatIterationLine`'s lines; the text's header shrinks as its text does. */
export function formatIterationHeader(width: number): string {
  const plain = ITERATION_COLUMNS.map(([header]) => header).join('  ');
  const room = width - plain.length - 2;
  return room >= 8 ? `${plain}  ${cutText('DECISION · HYPOTHESIS', room)}` : plain;
}

/**
 * One finished iteration, for every view that lists them (`run`, `watch`): number, status,
 * score, best, delta, cost, time, then the text — led, for a paired decision, by its interval
 * and per-case tally. The numbers are never cut; only the text shrinks to fit the width, and
 * is left out when fewer than 8 columns remain.
 */
export function formatIterationLine(
  record: IterationRecord,
  { width, colors: c }: { width: number; colors: ProgressColors },
): string {
  const fixed = ITERATION_COLUMNS.map(([, cell]) => cell(record));
  const plain = fixed.join('  ');
  const decision = record.paired
    ? `${formatInterval(record)} ${formatTally(record.paired)} · `
    : record.status === 'screened_out' && record.screen
      ? `${describeScreen(record.screen)}, `
      : '';
  const text = toOneLine(`${decision}${describeRow(record)}`);
  const room = width - plain.length - 2;
  fixed[1] = paintStatus(record.status, c)(fixed[1] as string);
  const tail = room >= 8 && text !== '' ? `  ${cutText(text, room)}` : '';
  return `${fixed.join('  ')}${tail}`;
}

function pair(name: string, from: number | null, to: number | null): string {
  return `${name} ${score(from)} → ${score(to)}`;
}
