/**
 * What `autoresearch eval` found, as one stable shape: the terminal breakdown, `--json`,
 * `--junit` and `--fail-under` all read it. Version 1; fields are only ever added.
 */
import * as z from 'zod';
import { SpendRole } from '../run/events.js';
import { ChecklistAnswers, GateFailure, ScoredSplit, SplitName } from '../scoring/types.js';

export const EVAL_REPORT_VERSION = 1;

/** `all` is the loop's cases (train and holdout); `test`, the sealed cases, only with `--split test`. */
export const ScopeName = ScoredSplit;
export type ScopeName = z.infer<typeof ScopeName>;

/** Each signal in 0..1; null when no case in scope has it. */
export const SignalScores = z.object({
  checks: z.number().nullable(),
  judge: z.number().nullable(),
  expectations: z.number().nullable(),
});
export type SignalScores = z.infer<typeof SignalScores>;

/** One check's pass rate over the (case × sample) outputs it applies to in a split. */
export const CheckRate = z.object({
  name: z.string(),
  gate: z.boolean(),
  passed: z.number().int().min(0),
  total: z.number().int().min(0),
  passRate: z.number().min(0).max(1),
});
export type CheckRate = z.infer<typeof CheckRate>;

export const SplitReport = z.object({
  split: ScopeName,
  cases: z.number().int().min(0),
  /** The weighted total; null when the split has no case or no signal. */
  total: z.number().nullable(),
  signals: SignalScores,
  gateFailed: z.boolean(),
  gateFailures: z.array(GateFailure),
  /** Judge criterion averages on the 1–5 scale; empty without a rubric. */
  criteria: z.record(z.string(), z.number()),
  checks: z.array(CheckRate),
  /** Expectations met over (case × sample × expectation); null when no case in scope has any. */
  expectations: z.object({ passed: z.number().int(), total: z.number().int() }).nullable(),
});
export type SplitReport = z.infer<typeof SplitReport>;

export const FailedCheck = z.object({
  check: z.string(),
  sample: z.number().int().min(0),
  gate: z.boolean(),
  reason: z.string(),
});
export type FailedCheck = z.infer<typeof FailedCheck>;

export const FailedExpectation = z.object({
  text: z.string(),
  /** What the grader quoted (may be empty). */
  evidence: z.string(),
  /** Why a claimed PASS was not accepted, or why nothing was graded. */
  flag: z.string().nullable(),
});
export type FailedExpectation = z.infer<typeof FailedExpectation>;

export const JudgeVerdict = z.object({
  sample: z.number().int().min(0),
  criteria: z.record(z.string(), z.number()),
  reasoning: z.string(),
  /** Checklist criteria's answers (docs/design/judge-reliability.md), when the judge gave them. */
  items: ChecklistAnswers.optional(),
});
export type JudgeVerdict = z.infer<typeof JudgeVerdict>;

export const CaseReport = z.object({
  id: z.string(),
  split: SplitName,
  total: z.number().nullable(),
  signals: SignalScores,
  /** Seconds the generator spent on this case's outputs (0 when served from the cache). */
  seconds: z.number().min(0),
  generationErrors: z.array(z.object({ sample: z.number().int().min(0), error: z.string() })),
  failedChecks: z.array(FailedCheck),
  failedExpectations: z.array(FailedExpectation),
  judge: z.array(JudgeVerdict),
  /** One short line on where the case lost points; null when it lost none. */
  reason: z.string().nullable(),
});
export type CaseReport = z.infer<typeof CaseReport>;

export const CostReport = z.object({
  usd: z.number().min(0),
  calls: z.number().int().min(0),
  /** Calls whose price is unknown: their cost is not in `usd`. */
  unpricedCalls: z.number().int().min(0),
  byRole: z.record(z.string(), z.object({ usd: z.number().min(0), calls: z.number().int().min(0) })),
});
export type CostReport = z.infer<typeof CostReport>;

export const FailUnderVerdict = z.object({
  split: ScopeName,
  threshold: z.number().min(0).max(1),
  score: z.number().nullable(),
  passed: z.boolean(),
  /** Why it failed (below the threshold, a gate failure, no score); null when it passed. */
  reason: z.string().nullable(),
});
export type FailUnderVerdict = z.infer<typeof FailUnderVerdict>;

export const EvalReport = z.object({
  version: z.literal(EVAL_REPORT_VERSION),
  runId: z.string(),
  runDir: z.string(),
  experiment: z.string(),
  /** True when any model used is the offline simulation: the scores show mechanics, not quality. */
  simulated: z.boolean(),
  simulatedRoles: z.array(SpendRole),
  status: z.enum(['ok', 'error']),
  error: z.object({ kind: z.string(), message: z.string() }).nullable(),
  samples: z.number().int().min(1),
  seconds: z.number().min(0),
  cost: CostReport,
  /** Null when the evaluation failed: a judge or grader error never yields a score. */
  /** `test` only under `--split test`, which evaluates the sealed test cases and no other. */
  splits: z
    .object({ train: SplitReport, holdout: SplitReport, all: SplitReport, test: SplitReport.optional() })
    .nullable(),
  cases: z.array(CaseReport),
  failUnder: FailUnderVerdict.nullable(),
  /**
   * A judge panel's members and agreement (docs/design/judge-reliability.md); absent without a
   * panel.
   */
  judgePanel: z
    .object({
      aggregate: z.string(),
      members: z.array(z.string()),
      alpha: z.number().nullable(),
      alphaByCriterion: z.record(z.string(), z.number().nullable()),
    })
    .optional(),
});
export type EvalReport = z.infer<typeof EvalReport>;
