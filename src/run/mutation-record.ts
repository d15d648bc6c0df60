/**
 * `mutation.json`: what the mutator was asked and what it answered, one file per iteration.
 * Written once by `writeMutation` (src/run/records.ts) and read back by the report with the
 * same schema (src/report/artifact-schemas.ts); the proposal types of src/loop/propose.ts and
 * the merge conflicts of src/search/merge-parts.ts are inferred from it.
 */
import * as z from 'zod';
import { MutatorFeedback } from '../protocol/mutation.js';
import { MemberId } from './events.js';

/** A usable revision: its sample index, the mutator's hypothesis, the prompt and its sha256. */
export const Proposal = z.object({
  candidate: z.number().int().min(0),
  hypothesis: z.string(),
  prompt: z.string(),
  hash: z.string(),
});
export type Proposal = z.infer<typeof Proposal>;

/** One candidate's request to the mutator: a proposal, or why none came (after `attempts` calls). */
export const ProposalAttempt = z.union([
  z.object({ ok: z.literal(true), proposal: Proposal, attempts: z.number().int().min(0) }),
  z.object({
    ok: z.literal(false),
    candidate: z.number().int().min(0),
    reason: z.enum(['duplicate', 'invalid', 'provider']),
    message: z.string(),
    attempts: z.number().int().min(0),
  }),
]);
export type ProposalAttempt = z.infer<typeof ProposalAttempt>;

/** An overlap a merge cannot decide: the region's lines in the ancestor and on each side. */
export const MergeConflict = z.object({
  /** 1, 2, … in document order over every part: how the mutator's reply names it. */
  id: z.number().int().min(1),
  /** The part it is in (the one part's name for a single-part prompt). */
  part: z.string(),
  ancestor: z.string(),
  ours: z.string(),
  theirs: z.string(),
});
export type MergeConflict = z.infer<typeof MergeConflict>;

/** A conflict and the text the mutator gave it. */
export const ResolvedConflict = MergeConflict.extend({ resolution: z.string() });
export type ResolvedConflict = z.infer<typeof ResolvedConflict>;

/** focused or bold (src/loop/strategy.ts). */
const Mode = MutatorFeedback.shape.strategy;

/** Greedy: every candidate revises the incumbent with one feedback. */
export const GreedyMutation = z.object({
  strategy: Mode,
  feedback: MutatorFeedback,
  attempts: z.array(ProposalAttempt),
});

/** Pareto: each candidate from its own parent (a merge: two), with its own feedback. */
export const ParetoMutation = z.object({
  // `strategy` as format 1 readers know it: the mutation mode.
  strategy: Mode,
  mode: Mode,
  candidates: z.array(
    z.object({
      candidate: z.number().int().min(0),
      parents: z.array(MemberId),
      feedback: MutatorFeedback.optional(),
      attempt: ProposalAttempt,
      conflicts: z.number().int().min(0).optional(),
      resolved: z.array(ResolvedConflict).optional(),
    }),
  ),
});

/**
 * A search strategy beyond these (src/search/strategy.ts) records its requests in its own shape,
 * named by its search; the report reads its proposals from the journal.
 */
export const OtherSearchMutation = z.looseObject({ search: z.string() });

export const KnownMutation = z.union([GreedyMutation, ParetoMutation]);
export type KnownMutation = z.infer<typeof KnownMutation>;

export const MutationRecord = z.union([KnownMutation, OtherSearchMutation]);
export type MutationRecord = z.infer<typeof MutationRecord>;

/** The usable proposals of a greedy or pareto mutation record, in candidate order. */
export function proposalsOf(record: KnownMutation): Proposal[] {
  const attempts = 'attempts' in record ? record.attempts : record.candidates.map((c) => c.attempt);
  return attempts.flatMap((a) => (a.ok ? [a.proposal] : []));
}
