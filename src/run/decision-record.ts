/**
 * `decision.json`: every figure an iteration's decision used, one file per iteration, in the
 * shape of the search that took it. Written once by `writeDecision` (src/run/records.ts) and
 * read back by the report with the same schema (src/report/artifact-schemas.ts); the decision
 * sides of src/loop/decide.ts, the paired detail of src/loop/accept-paired.ts and the pareto
 * verdict of src/search/pareto-outcome.ts are inferred from it.
 */
import * as z from 'zod';
import {
  BestComparison,
  CandidateKind,
  ErrorKind,
  IterationStatus,
  MemberId,
  PairedDecisionRecord,
  ScreenRecord,
} from './events.js';

const Index = z.number().int().min(0);

/** One side of a margin decision (src/loop/decide.ts). */
export const DecisionSide = z.object({
  train: z.number(),
  /** null when the experiment has no holdout cases. */
  holdout: z.number().nullable(),
  /** No gate failure. */
  eligible: z.boolean(),
  chars: z.number().int().min(0),
});
export type DecisionSide = z.infer<typeof DecisionSide>;

/** What a candidate must beat the incumbent by, per split (version 1's margin rule). */
export const Margin = z.object({ train: z.number(), holdout: z.number() });
export type Margin = z.infer<typeof Margin>;

/**
 * One case of a paired decision (docs/design/paired-acceptance.md): each side's mean score and
 * d = candidate − incumbent.
 */
export const PairedCase = z.object({
  split: z.enum(['train', 'holdout']),
  caseId: z.string(),
  candidate: z.number(),
  incumbent: z.number(),
  d: z.number(),
  /** The case's group, when the experiment groups its cases. */
  group: z.string().optional(),
});
export type PairedCase = z.infer<typeof PairedCase>;

/** A proposal as a paired decision saw it: its screen on the minibatch, when it had one. */
export const ScreenedProposal = z.object({
  candidate: Index,
  hypothesis: z.string(),
  screen: ScreenRecord.optional(),
});

/** What a paired decision (src/loop/accept-paired.ts) records beyond its status and reason. */
export const PairedDetail = z.object({
  acceptance: z.literal('paired'),
  /** Absent when every proposal was screened out: no decision was taken on the whole set. */
  minEffect: z.number().optional(),
  paired: PairedDecisionRecord.extend({
    cases: z.array(PairedCase),
    /**
     * The sample indices each side's per-case means rest on: its evaluation's, then its retest's
     * (src/loop/retest-samples.ts). Absent in records written before fresh retest draws.
     */
    sampleIndices: z.object({ candidate: z.array(Index), incumbent: z.array(Index) }).optional(),
  }).optional(),
  minibatch: z.array(z.string()).optional(),
  candidates: z.array(ScreenedProposal),
});
export type PairedDetail = z.infer<typeof PairedDetail>;

/** The baseline under the margin rule: each repeat's scores, their margin and mean. */
export const BaselineDecision = z.object({
  status: z.literal('baseline'),
  repeats: z.object({ train: z.array(z.number()), holdout: z.array(z.number()) }),
  margin: Margin,
  mean: z.object({ train: z.number(), holdout: z.number().nullable() }),
});

/** `autoresearch eval`: one evaluation of the current prompt, nothing decided. */
export const EvalDecision = z.object({
  status: z.literal('baseline'),
  reason: z.string(),
  scores: z.object({
    train: z.number().nullable(),
    holdout: z.number().nullable(),
    all: z.number().nullable(),
    test: z.number().nullable().optional(),
  }),
});

/** `autoresearch eval` that could not evaluate. */
export const EvalFailure = z.object({
  status: z.literal('error'),
  errorKind: ErrorKind.optional(),
  message: z.string(),
});

/** No candidate to decide: the mutator failed or repeated itself, or every evaluation failed. */
export const FailedDecision = z.object({
  status: z.enum(['error', 'duplicate']),
  errorKind: ErrorKind.optional(),
  reason: z.string(),
});

/** Greedy under paired acceptance: the chosen candidate against the incumbent. */
export const PairedGreedyDecision = PairedDetail.extend({
  status: IterationStatus,
  reason: z.string(),
  chosen: Index,
  incumbent: z.object({ iteration: Index, candidate: Index }),
});

/** Greedy under the margin rule: every scored candidate, the best against the incumbent. */
export const MarginDecision = z.object({
  status: IterationStatus,
  reason: z.string(),
  delta: z.number(),
  margin: Margin,
  chosen: Index,
  candidate: DecisionSide,
  incumbent: DecisionSide.extend({ iteration: Index }),
  candidates: z.array(DecisionSide.extend({ candidate: Index, hypothesis: z.string() })),
  confirmed: z.boolean(),
});

/**
 * A pareto candidate's verdict against its parent (docs/design/pareto-search.md): `pooled` for
 * a paired keep, else the status that turned it away; `best` once compared with the run's best.
 */
export const CandidateVerdict = z.object({
  candidate: Index,
  status: IterationStatus,
  /** The member it became, once admitted. */
  member: MemberId.nullable(),
  train: z.number().nullable(),
  holdout: z.number().nullable(),
  eligible: z.boolean(),
  /** Mean train difference against its parent. */
  delta: z.number().nullable(),
  paired: PairedDecisionRecord.optional(),
  /** A merge: against its second member. */
  pairedOther: PairedDecisionRecord.optional(),
  /** A merge: overlapping hunks the mutator resolved. */
  conflicts: z.number().int().min(0).optional(),
  screen: ScreenRecord.optional(),
  best: BestComparison.optional(),
  errorKind: ErrorKind.optional(),
  message: z.string(),
  hypothesis: z.string().nullable(),
  promptSha256: z.string().nullable(),
});
export type CandidateVerdict = z.infer<typeof CandidateVerdict>;

/** Pareto: every candidate's verdict, and the candidate the iteration's status is about. */
export const ParetoDecision = z.object({
  search: z.literal('pareto'),
  status: IterationStatus,
  candidate: Index.nullable(),
  best: MemberId.nullable(),
  candidates: z.array(
    CandidateVerdict.extend({
      kind: CandidateKind,
      parents: z.array(MemberId),
      detail: PairedDetail.optional(),
    }),
  ),
});

/** The shapes greedy, pareto, the baseline and `eval` write; most specific first (a reader takes the first that fits). */
export const KnownDecision = z.union([
  ParetoDecision,
  PairedGreedyDecision,
  MarginDecision,
  BaselineDecision,
  EvalDecision,
  EvalFailure,
  FailedDecision,
]);
export type KnownDecision = z.infer<typeof KnownDecision>;

/**
 * A search strategy beyond these (src/search/strategy.ts) records what it decided in its own
 * shape; the loop and the report rely on its status and reason only.
 */
export const OtherSearchDecision = z.looseObject({ status: IterationStatus, reason: z.string() });

export const DecisionRecord = z.union([KnownDecision, OtherSearchDecision]);
export type DecisionRecord = z.infer<typeof DecisionRecord>;
