/**
 * The head of every review (show, report): what ran, how it ended, baseline → best, the
 * noise margin, spend and whether any role was simulated. Pure: the run state plus what the
 * lock says in, one plain object out (also the `show --json` header).
 */
import { ITERATION_STATUSES } from '../run/events.js';
import type { IterationStatus, Phase, RunKind, SpendRole, StopReason } from '../run/events.js';
import type { JudgeAnchorsState, RoleSpend, RunState } from '../run/run-state.js';
import { runStatus, type RunStatus } from '../run/run-summary.js';
import { poolCallsSaved } from '../run/pool-summary.js';
import type { RunFrom, SeedFrom } from '../run/run-from.js';

export interface SplitPair {
  train: number | null;
  holdout: number | null;
  /**
   * The sealed test split (docs/design/paired-acceptance.md): only a final evaluation has it, when the
   * experiment has test cases.
   */
  test?: number | null;
}

export interface ScoredPrompt extends SplitPair {
  iteration: number;
}

/** `run --from` (src/run/run-from.ts) as reviews show it: the manifest's `from` without prompt texts. */
export type OverviewFrom = Omit<RunFrom, 'text' | 'seeds'> & { seeds?: Omit<SeedFrom, 'text'>[] };

export interface RunOverview {
  id: string;
  experiment: string | null;
  /** Where the starting prompt came from (`run --from`); absent for a run started from its files. */
  from?: OverviewFrom;
  kind: RunKind | null;
  status: RunStatus;
  stopReason: StopReason | null;
  stopMessage: string | null;
  startedAt: string | null;
  /** When the run stopped, else its last journaled event. */
  endedAt: string | null;
  activeSeconds: number;
  branch: string | null;
  /** Roles served by the simulated provider; non-empty means every figure is simulated. */
  simulated: SpendRole[];
  baseline: ScoredPrompt | null;
  /** The incumbent as the run's decisions saw it. */
  best: ScoredPrompt | null;
  /** The fresh re-evaluation of baseline and best at the end, when the run got that far. */
  final: { baseline: SplitPair; best: ScoredPrompt } | null;
  noiseMargin: { train: number; holdout: number | null } | null;
  /**
   * Drift anchors (docs/design/judge-reliability.md): the judge's noise at the baseline and every
   * drift check.
   */
  judgeAnchors: JudgeAnchorsState;
  /** Every journaled warning (judge drift among them), in journal order. */
  warnings: { iteration: number | null; message: string }[];
  /** Finished iterations after the baseline. */
  iterations: number;
  counts: Record<IterationStatus, number>;
  /**
   * Model calls screening spared (docs/design/paired-acceptance.md), as the journal records them.
   */
  callsSaved: number;
  /**
   * A pareto run's merges (docs/design/pareto-search.md): tried, entered the pool, became the run's best.
   * Absent without a pool.
   */
  merges?: { attempted: number; pooled: number; best: number };
  costUsd: number;
  calls: number;
  /**
   * The ledger per role (docs/design/cost-engine.md): calls (batch among them), tokens by kind,
   * USD.
   */
  costByRole: Record<SpendRole, RoleSpend>;
  /** Spend alerts at 50% and 80% of budget.usd (docs/design/cost-engine.md), as journaled. */
  spendAlerts: RunState['spendAlerts'];
  /** The iteration in progress, if any. */
  current: {
    iteration: number;
    phase: Phase | null;
    /** A retest (docs/design/paired-acceptance.md) is under way: the phase is the retest's. */
    retesting: boolean;
    candidate: number | null;
    progress: { done: number; total: number } | null;
  } | null;
}

export function buildOverview(
  state: RunState,
  run: { id: string; liveLock: boolean; experiment?: string | null; from?: RunFrom | undefined },
): RunOverview {
  const counts = Object.fromEntries(ITERATION_STATUSES.map((status) => [status, 0])) as Record<
    IterationStatus,
    number
  >;
  for (const record of state.iterations) counts[record.status] += 1;
  const incumbent = state.incumbent;
  return {
    id: run.id,
    experiment: state.start?.experiment ?? run.experiment ?? null,
    ...(run.from === undefined ? {} : { from: overviewFrom(run.from) }),
    kind: state.start?.kind ?? null,
    status: runStatus(state, run.liveLock),
    stopReason: state.stop?.reason ?? null,
    stopMessage: state.stop?.message ?? null,
    startedAt: state.start?.startedAt ?? null,
    endedAt: state.stop?.at ?? state.lastEventAt,
    activeSeconds: state.active.seconds,
    branch: state.start?.git?.branch ?? null,
    simulated: state.start?.simulated ?? [],
    baseline: state.baseline && {
      iteration: state.baseline.iteration,
      train: state.baseline.train,
      holdout: state.baseline.holdout,
    },
    best: incumbent && { iteration: incumbent.iteration, train: incumbent.train, holdout: incumbent.holdout },
    final: state.finalEvaluation && {
      baseline: { ...state.finalEvaluation.baseline },
      best: { ...state.finalEvaluation.best },
    },
    noiseMargin: state.noise && { train: state.noise.train, holdout: state.noise.holdout },
    judgeAnchors: state.judgeAnchors,
    warnings: state.warnings.map((w) => ({ iteration: w.iteration, message: w.message })),
    iterations: state.completedIterations,
    counts,
    callsSaved: callsSavedByScreening(state),
    ...(state.pool ? { merges: { ...state.pool.merges } } : {}),
    costUsd: state.spend.usd,
    calls: state.spend.calls,
    costByRole: state.spend.byRole,
    spendAlerts: state.spendAlerts,
    current: state.open && {
      iteration: state.open.iteration,
      phase: state.open.phase,
      retesting: state.open.retesting,
      candidate: state.open.candidate,
      progress: state.open.progress,
    },
  };
}

function overviewFrom({ text: _text, seeds, ...from }: RunFrom): OverviewFrom {
  if (seeds === undefined) return from;
  return { ...from, seeds: seeds.map(({ text: _seedText, ...seed }) => seed) };
}

/** The figures a headline should show: the fresh final evaluation when there is one. */
export function headlineScores(overview: RunOverview): {
  baseline: SplitPair | null;
  best: ScoredPrompt | null;
  fresh: boolean;
} {
  if (overview.final) return { baseline: overview.final.baseline, best: overview.final.best, fresh: true };
  return { baseline: overview.baseline, best: overview.best, fresh: false };
}

/**
 * The calls screening spared: the rest of the cases, never evaluated. Under pareto every
 * candidate is screened on its own, so its decisions are counted, not one per iteration.
 */
export function callsSavedByScreening(state: Pick<RunState, 'iterations' | 'pool'>): number {
  if (state.pool) return poolCallsSaved(state.pool);
  return state.iterations.reduce((sum, r) => sum + (r.screen?.callsSaved ?? 0), 0);
}
