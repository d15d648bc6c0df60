/**
 * What a run looks like after folding its journal (see reducer.ts). Derived data only:
 * it is never written to disk, so it carries no schema.
 */
import type {
  BestComparison,
  CandidateKind,
  ErrorKind,
  FinalScores,
  GitInfo,
  IterationStatus,
  PairedDecisionRecord,
  RunKind,
  Phase,
  ScreenRecord,
  SpendRole,
  StopReason,
  Strategy,
  TrainHoldout,
} from './events.js';

/**
 * What the journal alone says. Whether an `open` run is still running or has crashed needs
 * the lock as well (see listRuns).
 */
export type JournalStatus = 'empty' | 'open' | 'stopped' | 'finished';

export interface RunStartInfo {
  runId: string;
  kind: RunKind;
  experiment: string;
  configDigest: string;
  overrides: Record<string, unknown>;
  git: GitInfo | null;
  simulated: SpendRole[];
  startedAt: string;
}

export interface Signals {
  checks: number | null;
  judge: number | null;
  expectations: number | null;
}

export interface IterationRecord {
  iteration: number;
  status: IterationStatus;
  strategy: Strategy | null;
  candidate: number | null;
  /** The decided candidate's train score (for a baseline: the mean of its repeats). */
  train: number | null;
  holdout: number | null;
  incumbentBefore: number | null;
  delta: number | null;
  /** Paired acceptance: the decision's intervals and per-case tally. */
  paired: PairedDecisionRecord | null;
  /** The screen of the decided candidate, when there was one. */
  screen: ScreenRecord | null;
  /** The incumbent's train score once this iteration was decided. */
  best: number | null;
  /** Train-split signals of the decided candidate, averaged over its evaluations. */
  signals: Signals;
  /** A judge panel's agreement on the decided candidate (mean over its evaluations); absent without a panel. */
  judgeAlpha?: number | null;
  gateFailure: string | null;
  hypothesis: string | null;
  promptSha256: string | null;
  commit: string | null;
  costUsd: number;
  seconds: number;
  errorKind: ErrorKind | null;
  message: string | null;
  /** How many times this number was started (more than 1 after an interruption). */
  attempts: number;
  startedAt: string | null;
  finishedAt: string;
}

export interface ProposalRecord {
  candidate: number;
  hypothesis: string;
  promptSha256: string;
  duplicate: boolean;
}

export interface EvaluationRecord {
  candidate: number;
  repeat: number | null;
  train: number | null;
  holdout: number | null;
  all: number | null;
  signals: Signals;
  gateFailure: string | null;
  criteria: Record<string, number>;
  costUsd: number;
  /**
   * A judge panel's agreement (docs/design/judge-reliability.md): absent without a panel, null when
   * no score varied.
   */
  judgeAlpha?: number | null;
}

/** An iteration that was started and not finished: resume redoes it under the same number. */
export interface OpenIteration {
  iteration: number;
  strategy: Strategy;
  startedAt: string;
  attempts: number;
  phase: Phase | null;
  /**
   * A retest (docs/design/paired-acceptance.md) began: the phases since are the retest's
   * evaluations.
   */
  retesting: boolean;
  candidate: number | null;
  progress: { done: number; total: number } | null;
  proposals: ProposalRecord[];
  evaluations: EvaluationRecord[];
  /** A commit journaled for this iteration before it finished (the keep must be completed, not redone). */
  commit: string | null;
}

export interface Incumbent {
  iteration: number;
  promptSha256: string | null;
  train: number | null;
  holdout: number | null;
  /** False when it failed a gate: any eligible candidate then beats it. */
  eligible: boolean;
  /** The keep's commit; null for a baseline (the branch head is then `expectedHead`). */
  commit: string | null;
}

export interface NoiseState {
  iteration: number;
  train: number;
  holdout: number | null;
  repeats: TrainHoldout[];
  mean: TrainHoldout;
}

export interface Counters {
  /** discard / gate_fail / holdout_fail in a row, for `patience` (error and duplicate leave it alone). */
  nonImproving: number;
  /** error iterations in a row (3 stop the run). */
  consecutiveErrors: number;
  /** Non-keeps in a row (duplicates included), for `bold_after`. */
  discardsInARow: number;
}

/**
 * One role's ledger (docs/design/cost-engine.md), or the run's: token counts of calls actually
 * made.
 */
export interface RoleSpend {
  usd: number;
  calls: number;
  /** Of `calls`: through a batch API. */
  batchCalls: number;
  /** Of `calls`: response-cache hits (no provider call). The rest were interactive. */
  cachedCalls: number;
  /** All input tokens, the prompt cache's writes and reads among them. */
  inputTokens: number;
  cacheWriteTokens: number;
  cacheReadTokens: number;
  outputTokens: number;
}

export interface SpendTotals extends RoleSpend {
  byRole: Record<SpendRole, RoleSpend>;
}

export interface ActiveTime {
  /** Seconds in finished active periods (start/resume to stop, or to the last event before a crash). */
  closedSeconds: number;
  /** When the current active period began, if the journal is open. */
  openSince: string | null;
  /** closedSeconds plus the open period up to the last journaled event. */
  seconds: number;
}

export interface JudgeNoiseState {
  /** The baseline iteration whose anchors were read again. */
  iteration: number;
  anchors: number;
  noise: number;
  decisionNoise: number | null;
}

export interface DriftCheck {
  iteration: number;
  baseline: number;
  anchors: number;
  mean: number;
  lo: number | null;
  hi: number | null;
  band: number;
  beyondNoise: boolean;
}

export interface JudgeAnchorsState {
  noise: JudgeNoiseState | null;
  checks: DriftCheck[];
}

/** A pool member (docs/design/pareto-search.md), as its `pool_member` event journaled it. */
export interface PoolMemberRecord {
  id: string;
  iteration: number;
  candidate: number;
  kind: 'seed' | 'mutation' | 'merge';
  parents: string[];
  promptSha256: string;
  train: number | null;
  holdout: number | null;
  eligible: boolean;
  /** Train case id → total: the member's row of the score matrix. */
  cases: Record<string, number>;
  /** A pool start's seed: the member it was in the source run (`p3 of run …`). */
  origin?: string;
}

/** A parent choice (`parent_chosen`). */
export interface ParentChoiceRecord {
  iteration: number;
  candidate: number;
  kind: CandidateKind;
  parents: string[];
  ancestor: string | null;
  weights: Record<string, number>;
  draw: number | null;
}

/** One pareto candidate's outcome (`candidate_decided`). */
export interface CandidateDecisionRecord {
  iteration: number;
  candidate: number;
  kind: CandidateKind;
  parents: string[];
  status: IterationStatus;
  member: string | null;
  train: number | null;
  holdout: number | null;
  delta: number | null;
  paired: PairedDecisionRecord | null;
  pairedOther: PairedDecisionRecord | null;
  screen: ScreenRecord | null;
  best: BestComparison | null;
  conflicts: number | null;
  errorKind: ErrorKind | null;
  message: string | null;
  hypothesis: string | null;
  promptSha256: string | null;
}

/**
 * The pareto search's pool (docs/design/pareto-search.md), folded from the journal: null for a
 * greedy run. The front is derived, not journaled: src/search/pool.ts computes it from `members`.
 */
export interface PoolState {
  members: PoolMemberRecord[];
  /** The run's best member (the incumbent): p0 until a member beats it. */
  best: string | null;
  /** Parent choices of finished iterations and of the open one. */
  choices: ParentChoiceRecord[];
  /** Every finished candidate's outcome, in journal order. */
  decisions: CandidateDecisionRecord[];
  merges: { attempted: number; pooled: number; best: number };
}

export interface RunState {
  start: RunStartInfo | null;
  journalStatus: JournalStatus;
  resumes: number;
  /** One record per iteration number, ascending; a redone number shows its latest outcome. */
  iterations: IterationRecord[];
  /** Finished iterations after the baseline (neither baseline nor interrupted): what budgets count. */
  completedIterations: number;
  /** The number the next iteration takes (an interrupted or unfinished one is redone under its own). */
  nextIteration: number;
  open: OpenIteration | null;
  lastPhase: { iteration: number; phase: Phase; at: string } | null;
  baseline: {
    iteration: number;
    train: number | null;
    holdout: number | null;
    promptSha256: string | null;
  } | null;
  incumbent: Incumbent | null;
  noise: NoiseState | null;
  counters: Counters;
  spend: SpendTotals;
  /**
   * The spend alerts journaled so far (docs/design/cost-engine.md): each threshold once per run.
   */
  spendAlerts: { threshold: number; spentUsd: number; budgetUsd: number; iteration: number | null }[];
  active: ActiveTime;
  /** Every commit event, in journal order. */
  commits: { iteration: number; sha: string }[];
  /** Where the run branch should point: the last journaled commit, else the baseline commit, else the base. */
  expectedHead: string | null;
  /** A `--rebaseline` resume happened and no baseline has finished since. */
  pendingRebaseline: boolean;
  stop: { reason: StopReason; message: string; at: string } | null;
  finalEvaluation: {
    baseline: FinalScores;
    best: FinalScores & { iteration: number };
  } | null;
  warnings: { at: string; message: string; iteration: number | null }[];
  /** A `calibrate` run's headline (docs/design/judge-reliability.md). */
  calibration: { labels: number; lowestKappa: { criterion: string; kappa: number } | null } | null;
  /**
   * Drift anchors (docs/design/judge-reliability.md): the current baseline's judge noise and every
   * drift check so far.
   */
  judgeAnchors: JudgeAnchorsState;
  /**
   * The pareto search's pool (docs/design/pareto-search.md); null when the run journaled none (greedy, or before
   * record version 5).
   */
  pool: PoolState | null;
  lastEventAt: string | null;
}
