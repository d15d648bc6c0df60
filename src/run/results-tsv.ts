/**
 * `results.tsv`: one row per iteration, derived from the run state (never a second source of
 * truth). Tabs, newlines and backslashes inside hypotheses are escaped so every row is one line.
 */
import type { IterationRecord, RunState } from './run-state.js';

export const RESULTS_COLUMNS = [
  'iteration',
  'commit',
  'score',
  'best',
  'delta',
  'delta_lo',
  'delta_hi',
  'n_cases',
  'checks',
  'judge',
  'expectations',
  'holdout',
  'status',
  'cost_usd',
  'seconds',
  'hypothesis',
] as const;

export function formatResultsTsv(state: RunState): string {
  const rows = state.iterations.map(formatRow);
  return [RESULTS_COLUMNS.join('\t'), ...rows].join('\n') + '\n';
}

function formatRow(record: IterationRecord): string {
  const cells: Record<(typeof RESULTS_COLUMNS)[number], string> = {
    iteration: String(record.iteration),
    commit: record.commit === null ? '' : record.commit.slice(0, 7),
    score: fixed(record.train),
    best: fixed(record.best),
    delta: signed(record.delta),
    delta_lo: fixed(record.paired?.train.lo ?? null),
    delta_hi: fixed(record.paired?.train.hi ?? null),
    n_cases: record.paired ? String(record.paired.train.n) : '',
    checks: fixed(record.signals.checks),
    judge: fixed(record.signals.judge),
    expectations: fixed(record.signals.expectations),
    holdout: fixed(record.holdout),
    status: record.status,
    cost_usd: record.costUsd.toFixed(4),
    seconds: String(Math.round(record.seconds)),
    hypothesis: escapeCell(record.hypothesis ?? ''),
  };
  return RESULTS_COLUMNS.map((column) => cells[column]).join('\t');
}

function fixed(value: number | null): string {
  return value === null ? '' : value.toFixed(4);
}

function signed(value: number | null): string {
  if (value === null) return '';
  const text = value.toFixed(4);
  // A tiny negative rounds to "-0.0000"; show it as no change.
  return text.startsWith('-') && Number(text) !== 0 ? text : `+${text.replace('-', '')}`;
}

export function escapeCell(text: string): string {
  return text.replace(/[\\\t\n\r]/g, (ch) => {
    if (ch === '\t') return '\\t';
    if (ch === '\n') return '\\n';
    if (ch === '\r') return '\\r';
    return '\\\\';
  });
}
