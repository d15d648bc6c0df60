/**
 * `run`'s terminal output: the header, then events as they happen, in the words of
 * event-text.ts — what an iteration is doing on the status line, with where the run stands
 * against its budget (shown only when stderr is a TTY; the next write erases it), warnings and
 * spend alerts on stderr, column headers and then a row per finished iteration on stdout — and the
 * closing summary.
 */
import { isAbsolute, relative } from 'node:path';
import { formatRunSummary, type RunSummary, SUMMARY_LABEL_WIDTH } from './progress-line.js';
import { callsSavedByScreening } from '../report/overview.js';
import { summarizePool } from '../run/pool-summary.js';
import type { RunEvent, RunEventType } from '../run/events.js';
import type { RunState } from '../run/run-state.js';
import { cutVisible, formatField, visibleWidth, wrapWords } from './fit-text.js';
import { formatEvent, formatIterationHeader, paintEventText } from './event-text.js';
import { ledgerLines } from './format-ledger.js';
import { describeRunProgress, type ProgressBudget, runProgress } from './run-progress.js';
import type { Terminal } from './terminal.js';

export interface RendererOptions {
  /** The run's budget, for "iteration N of M" and the time left on the status line. */
  budget?: ProgressBudget;
  now?: () => Date;
}

export function attachRunRenderer(
  term: Terminal,
  options: RendererOptions = {},
): (event: RunEvent, state: RunState) => void {
  const now = options.now ?? (() => new Date());
  let headerShown = false;
  return (event, state) => {
    if (event.type === 'run_stopped') {
      term.status('');
      return;
    }
    if (!LIVE.has(event.type)) return;
    // A row for a person at a terminal fits its width; a log or a pipe (run.log) gets it whole.
    const width = term.isTTY ? term.width : Number.POSITIVE_INFINITY;
    const text = formatEvent(event, { width, colors: term.colors, state });
    if (text === undefined) return;
    if (event.type === 'phase' || event.type === 'batch_submitted') {
      const progress = runProgress(state, options.budget ?? {}, now());
      const where =
        progress && event.type === 'phase' && event.phase !== 'final'
          ? ` · ${describeRunProgress(progress)}`
          : '';
      term.status(paintEventText(text, term.colors, `  … ${text.text}${where}`));
    } else if (event.type === 'iteration_finished') {
      if (!headerShown) term.out(term.colors.dim(formatIterationHeader(width)));
      headerShown = true;
      term.out(text.text);
    } else term.err(paintEventText(text, term.colors, wrapWords(text.text, errWidth(term), 2)));
  };
}

/** The kinds `run` shows as they happen. */
const LIVE: ReadonlySet<RunEventType> = new Set([
  'phase',
  'batch_submitted',
  'iteration_finished',
  'warning',
  'spend_alert',
]);

export function summarizeForTerminal(
  state: RunState,
  extra: { runId: string; reportPath: string; simulated: boolean },
): RunSummary {
  const counts: RunSummary['counts'] = {};
  for (const it of state.iterations) counts[it.status] = (counts[it.status] ?? 0) + 1;
  const baseline = { train: state.baseline?.train ?? 0, holdout: state.baseline?.holdout ?? null };
  const best = { train: state.incumbent?.train ?? baseline.train, holdout: state.incumbent?.holdout ?? null };
  const final = state.finalEvaluation;
  return {
    runId: extra.runId,
    final:
      final && final.baseline.train !== null && final.best.train !== null
        ? {
            baseline: {
              train: final.baseline.train,
              holdout: final.baseline.holdout,
              ...(final.baseline.test === undefined ? {} : { test: final.baseline.test }),
            },
            best: {
              train: final.best.train,
              holdout: final.best.holdout,
              ...(final.best.test === undefined ? {} : { test: final.best.test }),
            },
          }
        : null,
    during: { baseline, best },
    counts,
    callsSaved: callsSavedByScreening(state),
    ...(state.pool ? { pool: summarizePool(state.pool) } : {}),
    totalCostUsd: state.spend.usd,
    ledger: ledgerLines(state.spend.byRole),
    stop: { reason: state.stop?.reason ?? 'crashed', message: state.stop?.message ?? '' },
    branch: state.start?.git?.branch ?? null,
    reportPath: extra.reportPath,
    simulated: extra.simulated,
    warnings: state.warnings.map((w) => w.message),
    improved: state.incumbent !== null && state.incumbent.iteration !== state.baseline?.iteration,
  };
}

export function renderRunSummary(
  state: RunState,
  term: Terminal,
  extra: Parameters<typeof summarizeForTerminal>[1],
): string {
  // Wrapped for a person at a terminal; a log or a pipe gets each line whole.
  const width = term.isTTY ? term.width : Number.POSITIVE_INFINITY;
  const reportPath = shortPath(extra.reportPath, width - SUMMARY_LABEL_WIDTH);
  return formatRunSummary(summarizeForTerminal(state, { ...extra, reportPath }), term.colors, width);
}

/**
 * The lines a run starts with: its id, size and branch (broken between those parts, never
 * inside one, when the terminal is narrow) and where its record is.
 */
export function renderRunHeader(
  term: Terminal,
  run: { runId: string; cases: number; branch: string | null; runDir: string },
): string {
  const parts = [
    term.colors.bold(`run ${run.runId}`),
    `${run.cases} cases`,
    run.branch ? `branch ${run.branch}` : 'commits off: not a git repository',
  ];
  const width = errWidth(term);
  const lines = [parts[0] as string];
  for (const part of parts.slice(1)) {
    const last = lines.length - 1;
    const joined = `${lines[last]}  ${part}`;
    if (visibleWidth(joined) <= width) lines[last] = joined;
    else lines.push(cutVisible(`  ${part}`, width));
  }
  const label = '  record: ';
  lines.push(formatField(label, shortPath(run.runDir, width - label.length), width));
  return lines.join('\n');
}

/** A message on its own line(s), broken between words; lines after the first are indented. */
export function renderNote(term: Terminal, text: string, indent = 2): string {
  return wrapWords(text, errWidth(term), indent);
}

/** Prose on stderr wraps to the terminal's width; a log or a pipe gets each line whole. */
function errWidth(term: Terminal): number {
  return term.errIsTTY ? term.width : Number.POSITIVE_INFINITY;
}

/** `path` relative to the working directory when it is inside it and the absolute path does not fit `room`. */
function shortPath(path: string, room: number): string {
  if (visibleWidth(path) <= room) return path;
  const inside = relative(process.cwd(), path);
  return inside !== '' && !inside.startsWith('..') && !isAbsolute(inside) ? inside : path;
}
