/**
 * What scoring reads and returns (docs/design/scoring-and-decisions.md). One candidate evaluation
 * gathers, for every (case, sample): the generated output, the outcomes of the case's checks, the
 * judge's criterion means (when the experiment has a rubric) and, per case, the graded expectations
 * (for cases that have them). The evaluation pipeline builds it, the loop decides on its
 * scores, and the records and the report store and show both.
 */
import * as z from 'zod';
import { SampleChecks } from '../checks/check-result.js';
import { AGGREGATES, Weights } from '../experiment/schema.js';

/**
 * A case's split; `test` is sealed (docs/design/paired-acceptance.md): only the final evaluation and
 * `eval --split test` score it.
 */
export const SplitName = z.enum(['train', 'holdout', 'test']);
export type SplitName = z.infer<typeof SplitName>;

/** A split to score: one of the cases' splits, or `all`, the loop's cases (train and holdout, never test). */
export const ScoredSplit = z.enum(['train', 'holdout', 'test', 'all']);
export type ScoredSplit = z.infer<typeof ScoredSplit>;

/**
 * A tool call the generator made (docs/design/prompt-shapes.md), as src/providers/types.ts
 * ToolCall.
 */
export const ToolCallRecord = z.object({
  id: z.string(),
  name: z.string(),
  arguments: z.record(z.string(), z.unknown()),
});

/**
 * One generation. `ok: false` is a failed generation: `text` is '' and `error` says why.
 * `text` is the model's text alone; `toolCalls` (absent in records written before
 * docs/design/prompt-shapes.md, and when the model called none) are the calls its output file shows
 * after it (src/evaluate/output-text.ts).
 */
export const OutputRecord = z.object({
  caseId: z.string(),
  sample: z.number().int().min(0),
  ok: z.boolean(),
  text: z.string(),
  toolCalls: z.array(ToolCallRecord).optional(),
  error: z.string().optional(),
});
export type OutputRecord = z.infer<typeof OutputRecord>;

/** A check as declared for a case: enough to keep its weight in the denominator even without an outcome. */
export const DeclaredCheck = z.object({
  name: z.string(),
  weight: z.number().min(0),
  gate: z.boolean(),
});
export type DeclaredCheck = z.infer<typeof DeclaredCheck>;

/** A case as scoring sees it: its split, its checks (global then own) and its expectation texts. */
export const ScoringCase = z.object({
  id: z.string(),
  split: SplitName,
  checks: z.array(DeclaredCheck),
  expectations: z.array(z.string()),
});
export type ScoringCase = z.infer<typeof ScoringCase>;

/**
 * A checklist criterion's answers (docs/design/judge-reliability.md): each item, met or not, as the
 * judge wrote them.
 */
export const ChecklistAnswers = z.record(
  z.string(),
  z.array(z.object({ item: z.string(), met: z.boolean() })),
);
export type ChecklistAnswers = z.infer<typeof ChecklistAnswers>;

/** The judge's verdict on one output: criterion means on 1..5 (already averaged over judge samples). */
export const JudgeRecord = z.object({
  caseId: z.string(),
  sample: z.number().int().min(0),
  criteria: z.record(z.string(), z.number().min(1).max(5)),
  reasoning: z.string(),
  /** Checklist criteria only, when the judge answered item by item. */
  items: ChecklistAnswers.optional(),
});
export type JudgeRecord = z.infer<typeof JudgeRecord>;

/** One panel member's scores (docs/design/judge-reliability.md), by output, before aggregation. */
export const PanelMemberScores = z.object({
  /** `sim/sim-1`, `program: node my-judge.mjs`. */
  label: z.string(),
  scores: z.array(
    z.object({
      caseId: z.string(),
      sample: z.number().int().min(0),
      criteria: z.record(z.string(), z.number().min(1).max(5)),
    }),
  ),
});
export type PanelMemberScores = z.infer<typeof PanelMemberScores>;

/**
 * A judge panel's evaluation: every member's scores and how far they agree — Krippendorff's
 * alpha (ordinal) over every (output, criterion), and per criterion; null when no score varied.
 */
export const JudgePanelRecord = z.object({
  aggregate: z.enum(AGGREGATES),
  members: z.array(PanelMemberScores).min(2),
  alpha: z.number().nullable(),
  alphaByCriterion: z.record(z.string(), z.number().nullable()),
});
export type JudgePanelRecord = z.infer<typeof JudgePanelRecord>;

export const CriterionWeight = z.object({
  key: z.string(),
  weight: z.number().min(0),
});
export type CriterionWeight = z.infer<typeof CriterionWeight>;

/** One expectation as graded and verified. `flagged`: a PASS whose evidence did not check out (counts as failed). */
export const GradedExpectation = z.object({
  text: z.string(),
  passed: z.boolean(),
  evidence: z.string(),
  flagged: z.boolean().optional(),
});
export type GradedExpectation = z.infer<typeof GradedExpectation>;

/**
 * The grading of one case. Without `sample` it covers every successful sample of the case
 * (one grader call per case); with `sample` it covers that sample only.
 */
export const CaseGrading = z.object({
  caseId: z.string(),
  sample: z.number().int().min(0).optional(),
  expectations: z.array(GradedExpectation),
});
export type CaseGrading = z.infer<typeof CaseGrading>;

export const Evaluation = z.object({
  /** Generations per case; a (case, sample) without an output record counts as a failed generation. */
  samples: z.number().int().min(1),
  cases: z.array(ScoringCase),
  outputs: z.array(OutputRecord),
  checks: z.array(SampleChecks),
  /** Present when the experiment has a rubric. */
  judge: z
    .object({
      criteria: z.array(CriterionWeight).min(1),
      scores: z.array(JudgeRecord),
      /**
       * A panel's members and their agreement (docs/design/judge-reliability.md); `scores` hold the
       * aggregate.
       */
      panel: JudgePanelRecord.optional(),
    })
    .optional(),
  /** Gradings of the cases that have expectations (missing ones count as all failed). */
  gradings: z.array(CaseGrading).default([]),
  weights: Weights,
});
export type Evaluation = z.infer<typeof Evaluation>;

/** The three signals, each in 0..1; absent when no case in scope has it. */
export const Signals = z.object({
  checks: z.number().min(0).max(1).optional(),
  judge: z.number().min(0).max(1).optional(),
  expectations: z.number().min(0).max(1).optional(),
});
export type Signals = z.infer<typeof Signals>;

export const GateFailure = z.object({
  caseId: z.string(),
  sample: z.number().int().min(0),
  check: z.string(),
  reason: z.string(),
});
export type GateFailure = z.infer<typeof GateFailure>;

export const CaseScore = Signals.extend({
  caseId: z.string(),
  split: SplitName,
  /** Null when the case has no signal at all. */
  total: z.number().min(0).max(1).nullable(),
});
export type CaseScore = z.infer<typeof CaseScore>;

export const SplitScore = Signals.extend({
  split: ScoredSplit,
  /** Null when the split has no case, or no signal (nothing to compare: callers treat it as a tie). */
  total: z.number().min(0).max(1).nullable(),
  gateFailed: z.boolean(),
  gateFailures: z.array(GateFailure),
  /** Criterion averages on 1..5 over the split's outputs (failed generations count as 1); empty without a rubric. */
  criteria: z.record(z.string(), z.number()),
  cases: z.array(CaseScore),
});
export type SplitScore = z.infer<typeof SplitScore>;
