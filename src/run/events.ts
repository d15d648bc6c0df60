/**
 * The journal's vocabulary (docs/design/run-records.md): every line of `events.jsonl` is one of
 * these events. The loop emits them, the run store appends them, and every reader (runs, show,
 * watch, report, resume) folds them into state. Each event carries the record version of its run
 * (`v`, see record-version.ts), so a tool refuses a journal newer than itself instead of
 * misreading it.
 */
import * as z from 'zod';
import { ROLES } from '../experiment/roles.js';
import { PROVIDERS } from '../providers/registry.js';
import { RECORD_VERSION } from './record-version.js';
import { ITERATION_STATUSES, PHASES } from './vocabulary.js';

export { ITERATION_STATUSES, PHASES };

export const Phase = z.enum(PHASES);
export type Phase = z.infer<typeof Phase>;

export const IterationStatus = z.enum(ITERATION_STATUSES);
export type IterationStatus = z.infer<typeof IterationStatus>;

export const ErrorKind = z.enum([
  'provider_error',
  'mutator_error',
  'judge_error',
  'grader_error',
  'check_error',
  'git_error',
  'internal_error',
]);
export type ErrorKind = z.infer<typeof ErrorKind>;

/** Reasons that mean the run reached its natural end; the others leave it stopped part-way. */
const FINISHING_REASONS = ['iterations', 'hours', 'usd', 'patience', 'target', 'completed'] as const;

export const StopReason = z.enum([
  ...FINISHING_REASONS,
  'stop_requested',
  'interrupted',
  'auth',
  'credit',
  'errors',
]);
export type StopReason = z.infer<typeof StopReason>;

const FINISHING: ReadonlySet<StopReason> = new Set(FINISHING_REASONS);

export function isFinishingReason(reason: StopReason): boolean {
  return FINISHING.has(reason);
}

export const Strategy = z.enum(['focused', 'bold']);
export type Strategy = z.infer<typeof Strategy>;

// Weighted means of values in [0, 1] can land a rounding error outside it; that is not a bad score.
const SCORE_EPSILON = 1e-9;

export const SpendRole = z.enum(ROLES);
export type SpendRole = z.infer<typeof SpendRole>;

const iteration = z.number().int().min(0);
const candidate = z.number().int().min(0);
const score = z
  .number()
  .min(-SCORE_EPSILON)
  .max(1 + SCORE_EPSILON);
const usd = z.number().min(0);
const sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'a sha256 hex digest');

/** One split's scores: the weighted total and each signal (null when the split lacks it). */
export const SplitScores = z.strictObject({
  total: score.nullable(),
  checks: score.nullable(),
  judge: score.nullable(),
  expectations: score.nullable(),
});
export type SplitScores = z.infer<typeof SplitScores>;

export const TrainHoldout = z.strictObject({ train: score.nullable(), holdout: score.nullable() });
export type TrainHoldout = z.infer<typeof TrainHoldout>;

/**
 * A final evaluation's figures: `test` only when the experiment has sealed test cases
 * (docs/design/paired-acceptance.md).
 */
export const FinalScores = TrainHoldout.extend({ test: score.nullable().optional() });
export type FinalScores = z.infer<typeof FinalScores>;

export const GitInfo = z.strictObject({
  branch: z.string().min(1),
  base: z.string().min(1),
  /** The commit recording a modified or untracked working-tree prompt (`Autoresearch-Iteration: 0`). */
  baselineCommit: z.string().min(1).nullable(),
});
export type GitInfo = z.infer<typeof GitInfo>;

const envelope = {
  /** The record version of the run (manifest.json `version`): 1 up to this build's. */
  v: z.number().int().min(1).max(RECORD_VERSION),
  at: z.iso.datetime({ offset: true }),
};

/**
 * An optimisation run, one evaluation (`eval`) or a judge calibration (`calibrate`,
 * docs/design/judge-reliability.md).
 */
export const RunKind = z.enum(['run', 'eval', 'calibrate']);
export type RunKind = z.infer<typeof RunKind>;

export const RunStarted = z.strictObject({
  ...envelope,
  type: z.literal('run_started'),
  runId: z.string().min(1),
  kind: RunKind,
  experiment: z.string().min(1),
  configDigest: sha256,
  overrides: z.record(z.string(), z.unknown()),
  /** Null outside a git repository: commits are off. */
  git: GitInfo.nullable(),
  /** Roles served by the simulated provider; non-empty means results must be labelled simulated. */
  simulated: z.array(SpendRole),
});

export const RunResumed = z.strictObject({
  ...envelope,
  type: z.literal('run_resumed'),
  overrides: z.record(z.string(), z.unknown()),
  rebaseline: z.boolean(),
});

/**
 * The mutation mode (focused or bold) is `strategy` up to record version 4 and `mode` from 5
 * on, where "strategy" names the search strategy (docs/design/pareto-search.md); readers take
 * `modeOf(event)`.
 */
export const IterationStarted = z.strictObject({
  ...envelope,
  type: z.literal('iteration_started'),
  iteration,
  strategy: Strategy.optional(),
  mode: Strategy.optional(),
});

export function modeOf(event: { strategy?: Strategy | undefined; mode?: Strategy | undefined }): Strategy {
  return event.mode ?? event.strategy ?? 'focused';
}

/** Emitted when a phase begins (and optionally as it progresses), never once per model call. */
export const PhaseEvent = z.strictObject({
  ...envelope,
  type: z.literal('phase'),
  iteration,
  phase: Phase,
  candidate: candidate.optional(),
  done: z.number().int().min(0).optional(),
  total: z.number().int().min(0).optional(),
});

export const Proposal = z.strictObject({
  ...envelope,
  type: z.literal('proposal'),
  iteration,
  candidate,
  hypothesis: z.string(),
  promptSha256: sha256,
  /** The prompt repeats one already tried in this run. */
  duplicate: z.boolean(),
});

export const CandidateEvaluated = z.strictObject({
  ...envelope,
  type: z.literal('candidate_evaluated'),
  iteration,
  candidate,
  /** Which of the baseline's repeated evaluations (or a confirmation re-run) this is. */
  repeat: z.number().int().min(0).optional(),
  scores: z.strictObject({ train: SplitScores, holdout: SplitScores, all: SplitScores }),
  /** Why the candidate is ineligible (a gate check failed somewhere), or null. */
  gateFailure: z.string().nullable(),
  /** Judge criteria averages on the 1–5 scale, keyed by criterion. */
  criteria: z.record(z.string(), z.number().min(1).max(5)),
  costUsd: usd,
  /**
   * A judge panel's agreement on this evaluation (Krippendorff's alpha, ordinal; docs/design/judge-reliability.md);
   * null: no score varied.
   */
  judgeAlpha: z.number().nullable().optional(),
});

export const NoiseMargin = z.strictObject({
  ...envelope,
  type: z.literal('noise_margin'),
  iteration,
  train: z.number().min(0),
  holdout: z.number().min(0).nullable(),
  repeats: z.array(TrainHoldout),
  mean: TrainHoldout,
});

/**
 * A mean per-case difference with its one-sided bounds (docs/design/paired-acceptance.md); bounds
 * null below 2 cases.
 */
export const PairedInterval = z.strictObject({
  n: z.number().int().min(0),
  mean: z.number(),
  sd: z.number().min(0),
  lo: z.number().nullable(),
  hi: z.number().nullable(),
  /**
   * Groups of cases (docs/design/paired-acceptance.md): the interval was taken on this many group
   * means (mean and sd are theirs; n stays the cases). Absent: cases independent, and every
   * record written before groups.
   */
  groups: z.number().int().min(1).optional(),
});
export type PairedInterval = z.infer<typeof PairedInterval>;

/**
 * How a paired decision (docs/design/paired-acceptance.md) was reached: the intervals of its last look
 * and the per-case tally.
 */
export const PairedDecisionRecord = z.strictObject({
  /** The confidence of each look (1 − (1 − c)/2 when a retest was allowed). */
  confidence: z.number().gt(0).lt(1),
  /** 1, or 2 when the first look asked for a retest. */
  looks: z.number().int().min(1).max(2),
  train: PairedInterval,
  holdout: PairedInterval.nullable(),
  /** Train cases the candidate scored higher, lower, equal (against what it was compared with). */
  wins: z.number().int().min(0),
  losses: z.number().int().min(0),
  ties: z.number().int().min(0),
});
export type PairedDecisionRecord = z.infer<typeof PairedDecisionRecord>;

/**
 * The screen a proposal passed or failed before the rest of the cases
 * (docs/design/paired-acceptance.md).
 */
export const ScreenRecord = z.strictObject({
  /** The minibatch, drawn with the run's seed. */
  cases: z.array(z.string()),
  /** Mean per-case difference against the incumbent on the minibatch. */
  mean: z.number(),
  /** The decided candidate passed its screen. */
  passed: z.boolean(),
  /** Model calls the iteration did not make: the rest of every screened-out proposal's evaluation. */
  callsSaved: z.number().int().min(0),
});
export type ScreenRecord = z.infer<typeof ScreenRecord>;

export const IterationFinished = z.strictObject({
  ...envelope,
  type: z.literal('iteration_finished'),
  iteration,
  status: IterationStatus,
  /** The candidate the decision is about (the best of the iteration), null when none was scored. */
  candidate: candidate.nullable(),
  train: score.nullable(),
  holdout: score.nullable(),
  incumbentBefore: score.nullable(),
  delta: z.number().nullable(),
  /** Record version 2, paired acceptance: the decision's intervals (absent under margin). */
  paired: PairedDecisionRecord.optional(),
  /** Record version 2: the screen of the decided candidate (absent when there was none). */
  screen: ScreenRecord.optional(),
  errorKind: ErrorKind.optional(),
  message: z.string().optional(),
  hypothesis: z.string().nullable(),
  promptSha256: sha256.nullable(),
  costUsd: usd,
  seconds: z.number().min(0),
});

/** Journaled right after the git commit, so resume can tell a made commit from a missing one. */
export const CommitEvent = z.strictObject({
  ...envelope,
  type: z.literal('commit'),
  iteration,
  sha: z.string().regex(/^[0-9a-f]{7,64}$/, 'a git commit id'),
});

const tokens = z.number().int().min(0);

/**
 * Money and calls, aggregated per iteration or phase (never one event per call). The token
 * counts and batch calls (docs/design/cost-engine.md's ledger per role) are absent from journals
 * written before them; a reader counts them as 0.
 */
export const Spend = z.strictObject({
  ...envelope,
  type: z.literal('spend'),
  role: SpendRole,
  usd,
  calls: z.number().int().min(0),
  /** Every input token of the calls actually made (response-cache hits count none), cached ones included. */
  inputTokens: tokens.optional(),
  /** Of those: written to the provider's prompt cache. */
  cacheWriteTokens: tokens.optional(),
  /** Of those: served by the provider's prompt cache. */
  cacheReadTokens: tokens.optional(),
  outputTokens: tokens.optional(),
  /** Of `calls`: made through a batch API. */
  batchCalls: tokens.optional(),
  /** Of `calls`: answered by the run's response cache (no provider call, nothing paid). */
  cachedCalls: tokens.optional(),
  iteration: iteration.optional(),
  phase: Phase.optional(),
});

/**
 * The run's spend crossed `threshold` (0.5 or 0.8) of `budget.usd` (docs/design/cost-engine.md);
 * journaled once per threshold per run, resumes included.
 */
export const SpendAlert = z.strictObject({
  ...envelope,
  type: z.literal('spend_alert'),
  threshold: z.number().gt(0).lt(1),
  spentUsd: usd,
  budgetUsd: usd,
  iteration: iteration.optional(),
});

export const FinalEvaluation = z.strictObject({
  ...envelope,
  type: z.literal('final_evaluation'),
  baseline: FinalScores,
  best: FinalScores.extend({ iteration }),
});

export const RunStopped = z.strictObject({
  ...envelope,
  type: z.literal('run_stopped'),
  reason: StopReason,
  message: z.string(),
});

export const Warning = z.strictObject({
  ...envelope,
  type: z.literal('warning'),
  message: z.string().min(1),
  iteration: iteration.optional(),
});

/**
 * A batch created at a provider (docs/design/cost-engine.md), journaled before the run waits on it:
 * a resume polls this id instead of submitting the requests again. `model` with `provider` names
 * the entry.
 */
export const BatchSubmitted = z.strictObject({
  ...envelope,
  type: z.literal('batch_submitted'),
  batchId: z.string().min(1),
  provider: z.enum(PROVIDERS),
  model: z.string(),
  requests: z.number().int().min(1),
  iteration: iteration.optional(),
  phase: Phase.optional(),
});

/** A batch ended and its answers are in the cache; the rest are asked one by one. */
export const BatchFinished = z.strictObject({
  ...envelope,
  type: z.literal('batch_finished'),
  batchId: z.string().min(1),
  succeeded: z.number().int().min(0),
  failed: z.number().int().min(0),
  expired: z.number().int().min(0),
  canceled: z.number().int().min(0),
});

/**
 * A calibration's headline (docs/design/judge-reliability.md), for `runs`: the figures themselves are
 * in calibration.json.
 */
export const Calibrated = z.strictObject({
  ...envelope,
  type: z.literal('calibrated'),
  labels: z.number().int().min(0),
  /** The criterion with the lowest quadratic-weighted kappa; null when none is defined. */
  lowestKappa: z.strictObject({ criterion: z.string().min(1), kappa: z.number().min(-1).max(1) }).nullable(),
});

/**
 * One drift anchor read again (docs/design/judge-reliability.md): its judge score (0..1) as the
 * baseline got it, and now.
 */
export const AnchorReading = z.strictObject({
  caseId: z.string().min(1),
  sample: z.number().int().min(0),
  baseline: score,
  now: score,
});
export type AnchorReading = z.infer<typeof AnchorReading>;

/**
 * The baseline's drift anchors read once more right after it (docs/design/judge-reliability.md,
 * src/loop/judge-anchors.ts): how far the judge's score of the same output moves with nothing
 * changed — the noise later drift checks are measured against. Journaled with the baseline's
 * `iteration_finished`.
 */
export const JudgeNoise = z.strictObject({
  ...envelope,
  type: z.literal('judge_noise'),
  iteration,
  anchors: z.array(AnchorReading).min(1),
  /** Root mean square of the per-anchor changes, on the judge signal (0..1). */
  noise: z.number().min(0),
  /** Paired acceptance: that noise in a decision's mean difference of the total score; null under margin. */
  decisionNoise: z.number().min(0).nullable(),
});

/**
 * A drift check (docs/design/judge-reliability.md): the anchors re-judged fresh, against the
 * baseline's scores of them.
 */
export const JudgeDrift = z.strictObject({
  ...envelope,
  type: z.literal('judge_drift'),
  iteration,
  /** The baseline iteration the anchors come from. */
  baseline: iteration,
  anchors: z.array(AnchorReading).min(1),
  /** Mean change (now − baseline) on the judge signal, with its two-sided 95% bounds (null below 2 anchors). */
  mean: z.number(),
  lo: z.number().nullable(),
  hi: z.number().nullable(),
  /** The largest mean change the baseline's judge noise explains: 2 · noise / √anchors. */
  band: z.number().min(0),
  beyondNoise: z.boolean(),
});

/**
 * A pool member (docs/design/pareto-search.md): `p0` is the baseline, then `p1`, `p2`, … in the
 * order they enter.
 */
export const MemberId = z.string().regex(/^p(0|[1-9][0-9]*)$/, 'a pool member id (p0, p1, …)');
export type MemberId = z.infer<typeof MemberId>;

/** How a pareto candidate was made: one parent's proposal, or a merge of two members. */
export const CandidateKind = z.enum(['mutation', 'merge']);
export type CandidateKind = z.infer<typeof CandidateKind>;

/**
 * A pareto candidate's parent(s), journaled before the mutator is asked
 * (docs/design/pareto-search.md). A mutation's parent is drawn from the front with probability ∝
 * the train cases each member leads (`weights`) by the seeded uniform `draw`; a merge names its two
 * members and their nearest common ancestor.
 */
export const ParentChosen = z.strictObject({
  ...envelope,
  type: z.literal('parent_chosen'),
  iteration,
  candidate,
  kind: CandidateKind,
  parents: z.array(MemberId).min(1).max(2),
  /** merge: the nearest common ancestor the two members' edits are taken from. */
  ancestor: MemberId.optional(),
  /** The front when the choice was made: each member's count of train cases it leads. */
  weights: z.record(z.string(), z.number().int().min(0)),
  /** mutation: the seeded uniform in [0, 1) that picked the parent; null for a merge. */
  draw: z.number().min(0).lt(1).nullable(),
});

/** A pooled member against the run's best (docs/design/pareto-search.md): moved only on a paired keep and a holdout no worse than the baseline's. */
export const BestComparison = z.strictObject({
  /** The member the candidate was compared with (the best before this iteration). */
  against: MemberId,
  paired: PairedDecisionRecord,
  /** Holdout per-case differences against the baseline (p0); null without holdout cases. */
  baselineHoldout: PairedInterval.nullable(),
  moved: z.boolean(),
  reason: z.string(),
});
export type BestComparison = z.infer<typeof BestComparison>;

/**
 * One pareto candidate's outcome (docs/design/pareto-search.md): `pooled` when
 * docs/design/paired-acceptance.md keeps it against its parent (a merge: against both), else the
 * status that turned it away. Journaled in the iteration's closing append, one per candidate
 * (results.tsv has a row for each).
 */
export const CandidateDecided = z.strictObject({
  ...envelope,
  type: z.literal('candidate_decided'),
  iteration,
  candidate,
  kind: CandidateKind,
  parents: z.array(MemberId).min(1).max(2),
  status: IterationStatus,
  /** The member it became, when pooled. */
  member: MemberId.nullable(),
  train: score.nullable(),
  holdout: score.nullable(),
  /** Mean per-case train difference against the (first) parent. */
  delta: z.number().nullable(),
  /** Against the (first) parent. */
  paired: PairedDecisionRecord.optional(),
  /** A merge: against its second parent. */
  pairedOther: PairedDecisionRecord.optional(),
  screen: ScreenRecord.optional(),
  /** A pooled member compared with the run's best. */
  best: BestComparison.optional(),
  /** A merge: overlapping hunks the mutator resolved. */
  conflicts: z.number().int().min(0).optional(),
  errorKind: ErrorKind.optional(),
  message: z.string().optional(),
  hypothesis: z.string().nullable(),
  promptSha256: sha256.nullable(),
});

/**
 * A member entering the pool (docs/design/pareto-search.md), with its per-case train means (the
 * score matrix the front is computed from). `p0` enters with the baseline; journaled in the closing
 * append of the iteration that made it, so resume restores the pool from the journal alone.
 */
export const PoolMemberEvent = z.strictObject({
  ...envelope,
  type: z.literal('pool_member'),
  member: MemberId,
  iteration,
  candidate,
  kind: z.enum(['seed', 'mutation', 'merge']),
  /** Empty for p0; one for a mutation; two for a merge. */
  parents: z.array(MemberId).max(2),
  promptSha256: sha256,
  train: score.nullable(),
  holdout: score.nullable(),
  eligible: z.boolean(),
  /** Train case id → that case's total (mean over its samples). */
  cases: z.record(z.string(), score),
  /** A pool start's seed (`run --from <run>/pool`): the member it was in the source run, `p3 of run …`. */
  origin: z.string().optional(),
});

export const RunEvent = z.discriminatedUnion('type', [
  RunStarted,
  RunResumed,
  IterationStarted,
  PhaseEvent,
  Proposal,
  CandidateEvaluated,
  NoiseMargin,
  IterationFinished,
  CommitEvent,
  Spend,
  SpendAlert,
  FinalEvaluation,
  RunStopped,
  Warning,
  Calibrated,
  JudgeNoise,
  JudgeDrift,
  ParentChosen,
  CandidateDecided,
  PoolMemberEvent,
  BatchSubmitted,
  BatchFinished,
]);
export type RunEvent = z.infer<typeof RunEvent>;
export type RunEventType = RunEvent['type'];
export type EventOf<T extends RunEventType> = Extract<RunEvent, { type: T }>;

type WithoutEnvelope<E> = E extends RunEvent ? Omit<E, 'v' | 'at'> : never;
/** An event as the loop builds it; `stampEvent` adds the version and the time. */
export type RunEventBody = WithoutEnvelope<RunEvent>;

/** `version`: the run's record version; a resumed run keeps the one it started with. */
export function stampEvent<B extends RunEventBody>(
  body: B,
  now: Date,
  version: number = RECORD_VERSION,
): B & { v: number; at: string } {
  return { v: version, at: now.toISOString(), ...body };
}
