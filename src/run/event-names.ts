/**
 * The journal's fixed vocabulary (SPEC 10) as plain values: phases, statuses, error kinds, stop
 * reasons, strategies. Apart from the event schemas (events.ts, zod), so that the commands that
 * only read a run (show, runs, watch, report) can check and fold its journal without loading a
 * schema library (BENCHMARKS.md, benchmark 6); events.ts builds its schemas from these lists.
 */

export const EVENT_VERSION = 1;

export const PHASES = [
  'baseline',
  'mutating',
  'generating',
  'checking',
  'judging',
  'grading',
  'scoring',
  'deciding',
  'committing',
  'final',
] as const;

export const ITERATION_STATUSES = [
  'baseline',
  'keep',
  'discard',
  'gate_fail',
  'holdout_fail',
  'duplicate',
  'error',
  'interrupted',
] as const;

export const ERROR_KINDS = [
  'provider_error',
  'mutator_error',
  'judge_error',
  'grader_error',
  'check_error',
  'git_error',
  'internal_error',
] as const;

/** Reasons that mean the run reached its natural end; the others leave it stopped part-way. */
const FINISHING_REASONS = ['iterations', 'hours', 'usd', 'patience', 'target', 'completed'] as const;

export const STOP_REASONS = [
  ...FINISHING_REASONS,
  'stop_requested',
  'interrupted',
  'auth',
  'credit',
  'errors',
] as const;

export const STRATEGIES = ['focused', 'bold'] as const;

// Weighted means of values in [0, 1] can land a rounding error outside it; that is not a bad score.
export const SCORE_EPSILON = 1e-9;

export type StopReason = (typeof STOP_REASONS)[number];

const FINISHING: ReadonlySet<StopReason> = new Set(FINISHING_REASONS);

export function isFinishingReason(reason: StopReason): boolean {
  return FINISHING.has(reason);
}
