/**
 * What `autoresearch watch` shows, as pure functions of the journal. On a TTY: one frame
 * (current phase and progress, best so far, spend, the last iterations) redrawn in place.
 * Elsewhere: plain lines, one per new phase, finished iteration and stop, so a log or a
 * pipe reads like the run's own progress output.
 */
import { cutText, toOneLine } from '../loop/text.js';
import type { EventOf, RunEvent } from '../run/events.js';
import { activeSecondsAt } from '../run/reducer.js';
import type { IterationRecord, RunState } from '../run/run-state.js';
import { callsSavedByScreening } from '../report/overview.js';
import { formatUsd } from './format-runs.js';
import {
  describePhase,
  describeRow,
  describeScreen,
  formatInterval,
  formatTally,
} from './format-decision.js';
import { formatDuration, score, signed } from './format-figures.js';
import { describeMerges } from '../run/pool-summary.js';
import { paintStatus } from './progress-line.js';
import { fitLines } from './fit-text.js';
import { describeDriftCheck, describeJudgeNoise } from './format-anchors.js';
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
    lines.push('');
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
 * One finished iteration: number, status, score, best, delta, cost, time, then the text —
 * led, for a paired decision, by its interval and per-case tally.
 */
export function formatIterationLine(record: IterationRecord, { width, colors: c }: ViewOptions): string {
  const fixed = [
    String(record.iteration).padStart(4),
    record.status.padEnd(12),
    score(record.train).padStart(5),
    `best ${score(record.best)}`,
    signed(record.delta).padStart(6),
    formatUsd(record.costUsd).padStart(6),
    formatDuration(record.seconds).padStart(7),
  ];
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
  const records = new Map(after.iterations.map((r) => [r.iteration, r]));
  for (const event of events) {
    switch (event.type) {
      case 'run_started': {
        const sim = event.simulated.length > 0 ? c.yellow(` [simulated: ${event.simulated.join(', ')}]`) : '';
        lines.push(`run started: ${event.experiment} (${event.kind})${sim}`);
        break;
      }
      case 'run_resumed':
        lines.push(`run resumed${event.rebaseline ? ' with a new baseline' : ''}`);
        break;
      case 'phase':
        if (options.lastPhase.get(event.iteration) === event.phase) break;
        options.lastPhase.set(event.iteration, event.phase);
        if (options.history) break;
        lines.push(
          c.dim(
            event.phase === 'final'
              ? '     final check: baseline and best evaluated again with fresh samples'
              : `     iteration ${event.iteration}: ${describePhase(event.phase, false)}${progressOf(event)}`,
          ),
        );
        break;
      case 'iteration_finished': {
        const record = records.get(event.iteration);
        if (record) lines.push(formatIterationLine(record, options));
        break;
      }
      case 'warning':
        lines.push(c.yellow(`warning: ${event.message}`));
        break;
      case 'spend_alert':
        lines.push(c.yellow(describeSpendAlert(event)));
        break;
      case 'judge_noise':
        lines.push(
          c.dim(
            `     iteration ${event.iteration}: judge ${describeJudgeNoise({ ...event, anchors: event.anchors.length })}`,
          ),
        );
        break;
      case 'judge_drift': {
        const text = `     iteration ${event.iteration}: judge ${describeDriftCheck({ ...event, anchors: event.anchors.length })}`;
        lines.push(event.beyondNoise ? c.yellow(text) : c.dim(text));
        break;
      }
      case 'final_evaluation': {
        // The sealed test split, when the experiment has one, leads: no decision saw it.
        const test =
          event.baseline.test === undefined && event.best.test === undefined
            ? ''
            : `${pair('test', event.baseline.test ?? null, event.best.test ?? null)}, `;
        lines.push(
          `final check (fresh): ${test}${pair('train', event.baseline.train, event.best.train)}, ${pair('holdout', event.baseline.holdout, event.best.holdout)}`,
        );
        break;
      }
      case 'run_stopped':
        lines.push(c.bold(`run stopped (${event.reason.replaceAll('_', ' ')}): ${event.message}`));
        lines.push(summarize(after));
        break;
      default:
        break;
    }
  }
  if (options.history && after.open && after.stop === null && after.open.phase) {
    lines.push(c.dim(`     iteration ${after.open.iteration}: ${after.open.phase} (in progress)`));
  }
  return lines;
}

function progressOf(event: EventOf<'phase'>): string {
  return event.done !== undefined && event.total !== undefined ? ` ${event.done}/${event.total}` : '';
}

function pair(name: string, from: number | null, to: number | null): string {
  return `${name} ${score(from)} → ${score(to)}`;
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
