/**
 * What `autoresearch watch` shows, as pure functions of the journal. On a TTY: one frame
 * (current phase and progress, best so far, spend, the last iterations) redrawn in place.
 * Elsewhere: plain lines, one per new phase, finished iteration and stop, so a log or a
 * pipe reads like the run's own progress output.
 */
import type { RunEvent } from '../run/events.js';
import { activeSecondsAt } from '../run/reducer.js';
import type { RunState } from '../run/run-state.js';
import { callsSavedByScreening } from '../report/overview.js';
import { formatUsd } from './format-runs.js';
import { describePhase } from './format-decision.js';
import { formatDuration, score, signed } from './format-figures.js';
import { describeMerges } from '../run/pool-summary.js';
import { fitLines } from './fit-text.js';
import { formatEvent, formatIterationHeader, formatIterationLine, paintEventText } from './event-text.js';
import { describeSpendAlert } from './format-ledger.js';
import type { Colors } from './terminal.js';

export interface ViewOptions {
  width: number;
  colors: Colors;
}

const LAST_ITERATIONS = 8;

export function renderWatchFrame(
  runId: string,
  state: RunState | null,
  now: Date,
  { width, colors: c }: ViewOptions,
): string {
  const lines: string[] = [];
  const experiment = state?.start?.experiment;
  const simulated = state?.start && state.start.simulated.length > 0 ? `  ${c.yellow('[simulated]')}` : '';
  lines.push(
    `${c.bold('autoresearch watch')}  ${runId}${experiment ? `  ${c.dim(experiment)}` : ''}${simulated}`,
  );
  if (state === null || state.start === null) {
    lines.push(c.dim('waiting for the run to write its journal…'));
    return fitFrame(lines, width);
  }
  lines.push(`${label('now', c)}${describeNow(state, now, c)}`);
  if (state.incumbent) {
    const base = state.baseline?.train ?? null;
    const gain =
      base !== null &&
      state.incumbent.train !== null &&
      state.incumbent.iteration !== state.baseline?.iteration
        ? ` (${signed(state.incumbent.train - base)} over baseline ${score(base)})`
        : '';
    const holdout = state.incumbent.holdout === null ? '' : `, holdout ${score(state.incumbent.holdout)}`;
    lines.push(
      `${label('best', c)}${c.bold(score(state.incumbent.train))} at iteration ${state.incumbent.iteration}${gain}${holdout}`,
    );
  }
  // A pareto run (docs/design/pareto-search.md): how big the pool is, which member is the best,
  // what merges came to.
  if (state.pool) {
    const pool = state.pool;
    const best = pool.best === null ? '' : `, best ${pool.best}`;
    lines.push(
      `${label('pool', c)}${pool.members.length} member${pool.members.length === 1 ? '' : 's'}${best}; merges: ${describeMerges(pool.merges)}`,
    );
  }
  lines.push(
    `${label('spend', c)}${formatUsd(state.spend.usd)} over ${state.spend.calls} calls, ${formatDuration(activeSecondsAt(state, now))} active`,
  );
  const alert = state.spendAlerts.at(-1);
  if (alert) lines.push(`${label('', c)}${c.yellow(describeSpendAlert(alert))}`);
  lines.push(`${label('iterations', c)}${describeCounts(state)}`);
  const recent = state.iterations.slice(-LAST_ITERATIONS);
  if (recent.length > 0) {
    lines.push('', c.dim(formatIterationHeader(width)));
    for (const record of recent) lines.push(formatIterationLine(record, { width, colors: c }));
  }
  if (state.stop === null) lines.push('', c.dim('Ctrl-C leaves this view; the run keeps going.'));
  return fitFrame(lines, width);
}

function describeNow(state: RunState, now: Date, c: Colors): string {
  if (state.stop)
    return `${c.bold('stopped')} (${state.stop.reason.replaceAll('_', ' ')}): ${state.stop.message}`;
  const open = state.open;
  if (!open) return c.dim('between iterations');
  const progress = open.progress ? ` ${open.progress.done}/${open.progress.total}` : '';
  const candidate = open.candidate !== null && open.candidate > 0 ? ` (candidate ${open.candidate})` : '';
  const since =
    state.lastPhase && state.lastPhase.iteration === open.iteration ? state.lastPhase.at : open.startedAt;
  const elapsed = Math.max(0, (now.getTime() - Date.parse(since)) / 1000);
  return `iteration ${open.iteration}, ${c.cyan(describePhase(open.phase, open.retesting))}${progress}${candidate}  ${c.dim(`for ${formatDuration(elapsed)}`)}`;
}

function describeCounts(state: RunState): string {
  const counts = new Map<string, number>();
  for (const record of state.iterations) {
    if (record.status !== 'baseline') counts.set(record.status, (counts.get(record.status) ?? 0) + 1);
  }
  const parts = [...counts].map(([status, n]) => `${n} ${status}`).join(', ');
  const saved = callsSavedByScreening(state);
  const screening = saved > 0 ? `; screening saved ${saved} calls` : '';
  return `${state.completedIterations} finished${parts === '' ? '' : `: ${parts}`}${screening}`;
}

/**
 * Plain lines for events the watcher has not shown yet. `history`: the events already in
 * the journal when watching began — summarised (finished iterations, the current phase)
 * rather than replayed phase by phase.
 */
export function describeEvents(
  events: readonly RunEvent[],
  after: RunState,
  options: ViewOptions & { history: boolean; lastPhase: Map<number, string> },
): string[] {
  const c = options.colors;
  const lines: string[] = [];
  for (const event of events) {
    if (event.type === 'phase') {
      // One line per phase an iteration enters; a resumed watch does not replay the past ones.
      if (options.lastPhase.get(event.iteration) === event.phase) continue;
      options.lastPhase.set(event.iteration, event.phase);
      if (options.history) continue;
    }
    const text = formatEvent(event, { width: options.width, colors: c, state: after });
    if (text === undefined) continue;
    lines.push(paintEventText(text, c, text.during ? `     ${text.text}` : text.text));
    if (event.type === 'run_stopped') lines.push(summarize(after));
  }
  if (options.history && after.open && after.stop === null && after.open.phase) {
    lines.push(c.dim(`     iteration ${after.open.iteration}: ${after.open.phase} (in progress)`));
  }
  return lines;
}

function summarize(state: RunState): string {
  const best = state.incumbent
    ? `best ${score(state.incumbent.train)} at iteration ${state.incumbent.iteration} (baseline ${score(state.baseline?.train ?? null)})`
    : 'no scored prompt';
  return `${best}; ${state.completedIterations} iterations; ${formatUsd(state.spend.usd)} spent`;
}

function label(text: string, c: Colors): string {
  return c.dim(text.padEnd(12));
}

function fitFrame(lines: readonly string[], width: number): string {
  // One column spare: a line that exactly fills the terminal wraps on some of them and breaks the redraw.
  return fitLines(lines, Math.max(10, width - 1));
}
