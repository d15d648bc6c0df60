/**
 * The journal's vocabulary (SPEC 10): every line of `events.jsonl` is one of these events.
 * The loop emits them, the run store appends them, and every reader (runs, show, watch,
 * report, resume) folds them into state. Each event carries the record version of its run
 * (`v`, see record-version.ts), so a tool refuses a journal newer than itself instead of
 * misreading it.
 */
import * as z from 'zod';
import { ROLES } from '../experiment/roles.js';
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

/** A final evaluation's figures: `test` only when the experiment has sealed test cases (SPEC 13). */
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

/** An optimisation run, one evaluation (`eval`) or a judge calibration (`calibrate`, SPEC 15). */
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

export const IterationStarted = z.strictObject({
  ...envelope,
  type: z.literal('iteration_started'),
  iteration,
  strategy: Strategy,
});

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
  /** A judge panel's agreement on this evaluation (Krippendorff's alpha, ordinal; SPEC 15); null: no score varied. */
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

/** A mean per-case difference with its one-sided bounds (SPEC 13); bounds null below 2 cases. */
export const PairedInterval = z.strictObject({
  n: z.number().int().min(0),
  mean: z.number(),
  sd: z.number().min(0),
  lo: z.number().nullable(),
  hi: z.number().nullable(),
});
export type PairedInterval = z.infer<typeof PairedInterval>;

/** How a paired decision (SPEC 13) was reached: the intervals of its last look and the per-case tally. */
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

/** The screen a proposal passed or failed before the rest of the cases (SPEC 13). */
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

/** Money and calls, aggregated per iteration or phase (never one event per call). */
export const Spend = z.strictObject({
  ...envelope,
  type: z.literal('spend'),
  role: SpendRole,
  usd,
  calls: z.number().int().min(0),
  iteration: iteration.optional(),
  phase: Phase.optional(),
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

/** A calibration's headline (SPEC 15), for `runs`: the figures themselves are in calibration.json. */
export const Calibrated = z.strictObject({
  ...envelope,
  type: z.literal('calibrated'),
  labels: z.number().int().min(0),
  /** The criterion with the lowest quadratic-weighted kappa; null when none is defined. */
  lowestKappa: z.strictObject({ criterion: z.string().min(1), kappa: z.number().min(-1).max(1) }).nullable(),
});

/** One drift anchor read again (SPEC 15): its judge score (0..1) as the baseline got it, and now. */
export const AnchorReading = z.strictObject({
  caseId: z.string().min(1),
  sample: z.number().int().min(0),
  baseline: score,
  now: score,
});
export type AnchorReading = z.infer<typeof AnchorReading>;

/**
 * The baseline's drift anchors read once more right after it (SPEC 15, src/loop/judge-anchors.ts):
 * how far the judge's score of the same output moves with nothing changed — the noise later
 * drift checks are measured against. Journaled with the baseline's `iteration_finished`.
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

/** A drift check (SPEC 15): the anchors re-judged fresh, against the baseline's scores of them. */
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
  FinalEvaluation,
  RunStopped,
  Warning,
  Calibrated,
  JudgeNoise,
  JudgeDrift,
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
