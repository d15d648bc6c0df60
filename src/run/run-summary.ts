/**
 * One line's worth of truth about a run, for `runs`: the journal says whether the run
 * stopped or finished; for a journal with no stop, the lock decides between running (a live
 * holder) and crashed (none).
 */
import type { RunKind, SpendRole, StopReason } from './events.js';
import type { LockStatus } from './lock.js';
import type { RunState } from './run-state.js';
import { type PoolSummary, summarizePool } from './pool-summary.js';

export type RunStatus = 'running' | 'stopped' | 'finished' | 'crashed';

export interface RunSummary {
  id: string;
  dir: string;
  kind: RunKind | null;
  experiment: string | null;
  status: RunStatus;
  /** Roles served by the simulated provider (non-empty: label the run simulated). */
  simulated: SpendRole[];
  /** Finished iterations after the baseline. */
  iterations: number;
  baseline: number | null;
  best: number | null;
  costUsd: number;
  /**
   * The pareto search's pool (docs/design/pareto-search.md): members and merges; null for a greedy
   * run.
   */
  pool: PoolSummary | null;
  /**
   * The ledger (docs/design/cost-engine.md): the run's calls and tokens by kind, in total and per
   * role.
   */
  ledger: RunState['spend'];
  /**
   * A `calibrate` run's headline: labels and the lowest kappa (docs/design/judge-reliability.md).
   */
  calibration: RunState['calibration'];
  startedAt: string | null;
  stopReason: StopReason | null;
  stopMessage: string | null;
  /** The live lock holder of a running run. */
  holder: { pid: number; host: string } | null;
  /** Something wrong with the record itself (a damaged journal, a missing manifest). */
  problems: string[];
}

export interface SummaryInput {
  id: string;
  dir: string;
  state: RunState;
  lock: LockStatus;
  /** Fallbacks from manifest.json when the journal has no run_started yet. */
  manifest: { kind: RunKind; experiment: string; createdAt: string } | null;
  problems: string[];
}

export function summarizeRun({ id, dir, state, lock, manifest, problems }: SummaryInput): RunSummary {
  const live = lock.state === 'held';
  return {
    id,
    dir,
    kind: state.start?.kind ?? manifest?.kind ?? null,
    experiment: state.start?.experiment ?? manifest?.experiment ?? null,
    status: runStatus(state, live),
    simulated: state.start?.simulated ?? [],
    iterations: state.completedIterations,
    baseline: state.baseline?.train ?? null,
    best: state.incumbent?.train ?? null,
    costUsd: state.spend.usd,
    pool: state.pool === null ? null : summarizePool(state.pool),
    ledger: state.spend,
    calibration: state.calibration,
    startedAt: state.start?.startedAt ?? manifest?.createdAt ?? null,
    stopReason: state.stop?.reason ?? null,
    stopMessage: state.stop?.message ?? null,
    holder: live && state.stop === null ? { pid: lock.holder.pid, host: lock.holder.host } : null,
    problems,
  };
}

export function runStatus(state: RunState, liveLock: boolean): RunStatus {
  if (state.journalStatus === 'finished') return 'finished';
  if (state.journalStatus === 'stopped') return 'stopped';
  return liveLock ? 'running' : 'crashed';
}

/** Newest first: by start time, then by id (ids begin with the local start minute). */
export function sortNewestFirst(runs: readonly RunSummary[]): RunSummary[] {
  return [...runs].sort((a, b) => {
    const byTime = (Date.parse(b.startedAt ?? '') || 0) - (Date.parse(a.startedAt ?? '') || 0);
    if (byTime !== 0) return byTime;
    return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
  });
}
