/**
 * Turns run events into terminal output: one line per finished iteration, a transient phase
 * indicator on a TTY, and the closing summary. It only builds text; the caller's terminal
 * prints it.
 */
import { formatProgressLine, formatRunSummary, type RunSummary } from '../loop/progress-line.js';
import type { RunEvent } from '../run/events.js';
import type { RunState } from '../run/run-state.js';
import type { Terminal } from './terminal.js';

export function attachRunRenderer(term: Terminal): (event: RunEvent, state: RunState) => void {
  let phaseShown = false;
  const clearPhase = () => {
    if (phaseShown && term.errIsTTY) term.err('\x1b[1A\x1b[2K');
    phaseShown = false;
  };
  return (event, state) => {
    if (event.type === 'phase' && term.errIsTTY) {
      clearPhase();
      term.err(term.colors.dim(`  … iteration ${event.iteration}: ${event.phase}`));
      phaseShown = true;
      return;
    }
    if (event.type === 'warning') {
      clearPhase();
      term.err(term.colors.yellow(`warning: ${event.message}`));
      return;
    }
    if (event.type !== 'iteration_finished') return;
    clearPhase();
    const record = state.iterations.find((it) => it.iteration === event.iteration);
    term.out(
      formatProgressLine(
        {
          iteration: event.iteration,
          status: event.status,
          score: event.train,
          best: state.incumbent?.train ?? event.train ?? 0,
          delta: event.delta,
          costUsd: event.costUsd,
          seconds: event.seconds,
          hypothesis:
            event.status === 'error' || event.status === 'duplicate'
              ? (event.message ?? '')
              : (event.hypothesis ?? record?.message ?? ''),
        },
        { width: term.width, colors: term.colors },
      ),
    );
  };
}

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
            baseline: { train: final.baseline.train, holdout: final.baseline.holdout },
            best: { train: final.best.train, holdout: final.best.holdout },
          }
        : null,
    during: { baseline, best },
    counts,
    totalCostUsd: state.spend.usd,
    stop: { reason: state.stop?.reason ?? 'crashed', message: state.stop?.message ?? '' },
    branch: state.start?.git?.branch ?? null,
    reportPath: extra.reportPath,
    simulated: extra.simulated,
  };
}

export function renderRunSummary(
  state: RunState,
  term: Terminal,
  extra: Parameters<typeof summarizeForTerminal>[1],
): string {
  return formatRunSummary(summarizeForTerminal(state, extra), term.colors);
}
