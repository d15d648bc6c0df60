/**
 * One pareto candidate's way through an iteration (SPEC 14): its parent's view and feedback,
 * one mutator request, then its evaluation and SPEC 13 decision against that parent alone
 * (src/loop/accept-paired.ts with one proposal; the parent's retest, when one is needed, goes
 * to the candidate's own `parent-retest/`, so concurrent candidates never share a folder).
 */
import { join } from 'node:path';
import type { CandidateOutcome } from '../evaluate/evaluate-candidate.js';
import type { CandidateKind } from '../run/events.js';
import { candidatePaths } from '../run/paths.js';
import type { PoolState } from '../run/run-state.js';
import { evaluateAndDecidePaired, type PairedResult } from '../loop/accept-paired.js';
import type { IncumbentView } from '../loop/incumbent.js';
import { feedbackFor, proposalPartsOf } from '../loop/incumbent-feedback.js';
import type { LoopRun } from '../loop/loop-deps.js';
import { type Proposal, type ProposalAttempt, proposeOne } from '../loop/propose.js';
import type { Strategy } from '../loop/strategy.js';
import type { MutatorFeedback } from '../protocol/mutation.js';
import { lineageHistory } from './lineage-history.js';
import { loadMemberView, memberById } from './member-view.js';

/** A candidate's journaled plan (its `parent_chosen`). */
export interface CandidatePlan {
  candidate: number;
  kind: CandidateKind;
  parents: string[];
  ancestor?: string;
  weights: Record<string, number>;
  draw: number | null;
}

export interface ProposedCandidate {
  plan: CandidatePlan;
  parent: IncumbentView;
  feedback: MutatorFeedback;
  attempt: ProposalAttempt;
}

export type DecidedCandidate =
  | { plan: CandidatePlan; parent: IncumbentView; attempt: Extract<ProposalAttempt, { ok: false }> }
  | {
      plan: CandidatePlan;
      parent: IncumbentView;
      proposal: Proposal;
      result: PairedResult;
    };

/** Asks the mutator once for a revision of the plan's parent, with that parent's feedback and lineage. */
export async function proposeFromParent(
  deps: LoopRun,
  input: { pool: PoolState; plan: CandidatePlan; mode: Strategy; claimed: Set<string> },
): Promise<ProposedCandidate> {
  const { experiment } = deps;
  const { search } = experiment.config;
  const parentId = input.plan.parents[0] as string;
  const parent = await loadMemberView(deps.runDir, memberById(input.pool, parentId));
  const feedback = feedbackFor(experiment, parent, lineageHistory(input.pool, parentId), input.mode);
  const parts = proposalPartsOf(experiment);
  const attempt = await proposeOne(
    {
      feedback,
      incumbent: parent.prompt,
      triedHashes: deps.recorder.triedPrompts(parent.prompt),
      maxGrowth: search.max_growth,
      ...(parts ? { parts } : {}),
      client: deps.pool.client('mutator'),
      signal: deps.signal,
    },
    input.plan.candidate,
    input.claimed,
  );
  return { plan: input.plan, parent, feedback, attempt };
}

/** Evaluates a proposed candidate and decides it against its parent (SPEC 13). */
export async function decideAgainstParent(
  deps: LoopRun,
  iteration: number,
  proposed: ProposedCandidate,
): Promise<DecidedCandidate> {
  const { plan, parent, attempt } = proposed;
  if (!attempt.ok) return { plan, parent, attempt };
  const result = await evaluateAndDecidePaired(deps, {
    iteration,
    incumbent: parent,
    proposals: [attempt.proposal],
    incumbentRetestDir: join(candidatePaths(deps.runDir, iteration, plan.candidate).dir, 'parent-retest'),
  });
  return { plan, parent, proposal: attempt.proposal, result };
}

/** The failure of an evaluation that produced no scores. */
export type EvaluationFailure = Extract<CandidateOutcome, { ok: false }>;
