/**
 * The `runs` listing as text: one row per run, fitted to the terminal width by shortening
 * the stop reason and then dropping the least useful columns, never the id; a last line names
 * what was dropped.
 */
import type { StopReason } from '../run/events.js';
import type { RunStatus, RunSummary } from '../run/run-summary.js';
import { wrapWords } from './fit-text.js';
import type { Colors } from './terminal.js';

export interface RunsTableOptions {
  width: number;
  colors: Colors;
  runsDir: string;
}

type Column = 'id' | 'kind' | 'experiment' | 'status' | 'iters' | 'scores' | 'cost' | 'started' | 'stop';

const HEADERS: Record<Column, string> = {
  id: 'RUN',
  kind: 'KIND',
  experiment: 'EXPERIMENT',
  status: 'STATUS',
  iters: 'ITERS',
  scores: 'BASELINE -> BEST',
  cost: 'COST',
  started: 'STARTED',
  stop: 'STOP',
};
const COLUMNS: Column[] = [
  'id',
  'kind',
  'experiment',
  'status',
  'iters',
  'scores',
  'cost',
  'started',
  'stop',
];
const RIGHT_ALIGNED: ReadonlySet<Column> = new Set(['iters', 'cost']);
const GAP = 2;

/** How to make a too-wide table fit, in order: shrink a column to a minimum, or drop it. */
const FITTING: ({ shrink: Column; min: number } | { drop: Column })[] = [
  { shrink: 'stop', min: 10 },
  { drop: 'started' },
  { drop: 'kind' },
  { drop: 'stop' },
  { shrink: 'experiment', min: 10 },
  // The id already holds the experiment's name.
  { drop: 'experiment' },
  { drop: 'cost' },
  { drop: 'iters' },
];

export function formatRunsTable(runs: readonly RunSummary[], options: RunsTableOptions): string {
  const c = options.colors;
  if (runs.length === 0) {
    return `No runs in ${options.runsDir}.\n${c.dim('Start one with: autoresearch run <experiment>')}`;
  }
  const rows = runs.map(toCells);
  const widths = naturalWidths(rows);
  const shown = fitColumns(widths, options.width);
  const last = shown.at(-1);
  const line = (cells: Record<Column, string>, paint: (column: Column, text: string) => string) =>
    shown
      .map((column) => {
        const text = truncate(cells[column], widths[column]);
        // The last cell is not padded, so no line ends in spaces (coloured or not).
        return paint(
          column,
          column === last && !RIGHT_ALIGNED.has(column) ? text : align(column, text, widths[column]),
        );
      })
      .join(' '.repeat(GAP));
  const header = line(HEADERS, (_column, text) => c.bold(text));
  const body = rows.map((cells, index) =>
    line(cells, (column, text) => (column === 'status' ? paintStatus(runs[index]!.status, text, c) : text)),
  );
  const problems = runs.flatMap((run) => run.problems.map((p) => `${c.yellow('!')} ${run.id}: ${p}`));
  const hidden = COLUMNS.filter((column) => !shown.includes(column)).map((column) => HEADERS[column]);
  const note =
    hidden.length === 0
      ? []
      : [
          c.dim(
            wrapWords(
              `(not shown at this width: ${hidden.join(', ')}; widen the terminal or use --json)`,
              options.width,
            ),
          ),
        ];
  return [header, ...body, ...problems, ...note].join('\n');
}

export function formatRunsJson(runs: readonly RunSummary[]): string {
  return JSON.stringify(runs, null, 2);
}

function toCells(run: RunSummary): Record<Column, string> {
  return {
    id: run.id,
    kind: run.kind ?? '?',
    experiment: run.experiment ?? '?',
    status: run.status,
    // An evaluation or a calibration has no iterations to count.
    iters: run.kind === 'run' ? String(run.iterations) : '-',
    // Simulated scores are always labelled, and this column is never dropped.
    scores: `${run.kind === 'calibrate' ? calibrationText(run) : `${score(run.baseline)} -> ${score(run.best)}`}${run.simulated.length > 0 ? ' (sim)' : ''}`,
    cost: formatUsd(run.costUsd),
    started: run.startedAt ? formatLocalMinute(run.startedAt) : '',
    stop: stopText(run),
  };
}

/**
 * A calibration has no prompt scores: its column holds the lowest kappa
 * (docs/design/judge-reliability.md).
 */
function calibrationText(run: RunSummary): string {
  const lowest = run.calibration?.lowestKappa;
  if (run.calibration === null) return 'calibration: -';
  if (lowest === null || lowest === undefined) return `kappa n/a, ${run.calibration.labels} labels`;
  return `min kappa ${lowest.kappa.toFixed(2)} (${lowest.criterion})`;
}

function stopText(run: RunSummary): string {
  if (run.status === 'running' && run.holder) return `pid ${run.holder.pid} on ${run.holder.host}`;
  if (run.status === 'crashed') return 'no stop recorded: resume it';
  return run.stopReason === null ? '' : STOP_LABELS[run.stopReason];
}

const STOP_LABELS: Record<StopReason, string> = {
  iterations: 'iteration budget',
  hours: 'time budget',
  usd: 'spending budget',
  patience: 'patience',
  target: 'target reached',
  completed: 'completed',
  stop_requested: 'stop requested',
  interrupted: 'interrupted',
  auth: 'auth failed',
  credit: 'out of credit',
  errors: 'errors in a row',
};

function score(value: number | null): string {
  return value === null ? '-' : value.toFixed(3);
}

export function formatUsd(usd: number): string {
  if (usd > 0 && usd < 0.01) return '<$0.01';
  return `$${usd.toFixed(2)}`;
}

/** `2026-11-29 22:30` in local time. */
export function formatLocalMinute(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

function naturalWidths(rows: readonly Record<Column, string>[]): Record<Column, number> {
  const widths = {} as Record<Column, number>;
  for (const column of COLUMNS) {
    widths[column] = Math.max(HEADERS[column].length, ...rows.map((row) => row[column].length));
  }
  return widths;
}

/** The columns to show; shrinks entries of `widths` in place. */
function fitColumns(widths: Record<Column, number>, available: number): Column[] {
  let shown = [...COLUMNS];
  const total = () => shown.reduce((sum, column) => sum + widths[column], 0) + GAP * (shown.length - 1);
  for (const step of FITTING) {
    const excess = total() - available;
    if (excess <= 0) break;
    if ('drop' in step) {
      shown = shown.filter((column) => column !== step.drop);
    } else {
      widths[step.shrink] = Math.max(step.min, HEADERS[step.shrink].length, widths[step.shrink] - excess);
    }
  }
  return shown;
}

function truncate(text: string, width: number): string {
  return text.length <= width ? text : `${text.slice(0, Math.max(0, width - 1))}…`;
}

function align(column: Column, text: string, width: number): string {
  return RIGHT_ALIGNED.has(column) ? text.padStart(width) : text.padEnd(width);
}

function paintStatus(status: RunStatus, text: string, c: Colors): string {
  switch (status) {
    case 'running':
      return c.green(text);
    case 'crashed':
      return c.red(text);
    case 'stopped':
      return c.yellow(text);
    case 'finished':
      return text;
  }
}
