/**
 * One pareto candidate's way through an iteration (docs/design/pareto-search.md): its parent's view
 * and feedback, one mutator request, then its evaluation and docs/design/paired-acceptance.md
 * decision against that parent alone (src/loop/accept-paired.ts with one proposal; the parent's
 * retest, when one is needed, goes to the candidate's own `parent-retest/`, so concurrent
 * candidates never share a folder).
 */
import { join } from 'node:path';
import type { CandidateOutcome } from '../evaluate/evaluate-types.js';
import type { Screening } from '../experiment/iteration-plan.js';
import type { CandidateKind } from '../run/events.js';
import { candidatePaths } from '../run/paths.js';
import type { PoolState } from '../run/run-state.js';
import { evaluateAndDecidePaired, type PairedResult } from '../loop/accept-paired.js';
import type { IncumbentView } from '../loop/incumbent.js';
import { proposalPartsOf, trainCasesOf } from '../loop/incumbent-feedback.js';
import { attributorFor } from '../loop/attribute-failure.js';
import { partsContextOf, type SignalScores } from '../loop/build-feedback.js';
import { hasSeveralParts } from '../experiment/part-texts.js';
import type { LoopRun } from '../loop/loop-deps.js';
import { type Proposal, type ProposalAttempt, proposeOne } from '../loop/propose.js';
import type { Strategy } from '../loop/strategy.js';
import type { MutatorFeedback } from '../protocol/mutation.js';
import { buildParentFeedback } from './parent-feedback.js';
import { proposeMerge, type ResolvedConflict } from './propose-merge.js';
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
  /** The (first) parent: a candidate is decided against it. */
  parent: IncumbentView;
  /** A mutation's feedback; null for a merge (its request is the merge's own). */
  feedback: MutatorFeedback | null;
  attempt: ProposalAttempt;
  /** A merge: its second member and the overlapping hunks the mutator resolved. */
  merge?: { other: IncumbentView; conflicts: number; resolved: ResolvedConflict[] };
}

export type DecidedCandidate =
  | {
      plan: CandidatePlan;
      parent: IncumbentView;
      attempt: Extract<ProposalAttempt, { ok: false }>;
      merge?: ProposedCandidate['merge'];
    }
  | {
      plan: CandidatePlan;
      parent: IncumbentView;
      proposal: Proposal;
      result: PairedResult;
      merge?: ProposedCandidate['merge'];
    };

/** Asks the mutator once for a revision of the plan's parent, with that parent's feedback and lineage. */
export async function proposeFromParent(
  deps: LoopRun,
  input: {
    pool: PoolState;
    plan: CandidatePlan;
    mode: Strategy;
    /** The iteration's minibatch (train case ids), or null: the parent's failures come from it. */
    minibatch: readonly string[] | null;
    claimed: Set<string>;
  },
): Promise<ProposedCandidate> {
  const { experiment } = deps;
  const { search } = experiment.config;
  const parentId = input.plan.parents[0] as string;
  const parent = await loadMemberView(deps.runDir, memberById(input.pool, parentId));
  const partsContext = partsContextOf(experiment.shape);
  const feedback = buildParentFeedback({
    parent: {
      id: parentId,
      prompt: parent.prompt,
      score: signalScores(parent),
      criteria: parent.trainScore.criteria,
    },
    trainCases: await trainCasesOf(experiment, deps.runDir, parent),
    minibatch: input.minibatch,
    pool: input.pool,
    mode: input.mode,
    guidance: search.guidance,
    maxGrowth: search.max_growth,
    ...(partsContext ? { parts: partsContext } : {}),
    ...(hasSeveralParts(experiment.shape) ? { attribute: attributorFor(experiment, parent.prompt) } : {}),
  });
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

/**
 * A merge of the plan's two members (docs/design/pareto-search.md): their edits since the nearest
 * common ancestor, three-way per part; the mutator resolves overlapping hunks
 * (src/search/propose-merge.ts).
 */
export async function proposeMergeOf(
  deps: LoopRun,
  input: { pool: PoolState; plan: CandidatePlan; claimed: Set<string> },
): Promise<ProposedCandidate> {
  const { plan, pool } = input;
  const [aId, bId] = plan.parents as [string, string];
  const [a, b, ancestor] = await Promise.all(
    [aId, bId, plan.ancestor as string].map((id) => loadMemberView(deps.runDir, memberById(pool, id))),
  );
  const parts = proposalPartsOf(deps.experiment);
  const side = (id: string, view: IncumbentView) => ({
    id,
    prompt: view.prompt,
    hypothesis: pool.decisions.find((d) => d.member === id)?.hypothesis ?? null,
  });
  const merged = await proposeMerge({
    candidate: plan.candidate,
    ancestor: { id: plan.ancestor as string, prompt: (ancestor as IncumbentView).prompt },
    a: side(aId, a as IncumbentView),
    b: side(bId, b as IncumbentView),
    triedHashes: new Set([...deps.recorder.triedPrompts((a as IncumbentView).prompt), ...input.claimed]),
    maxGrowth: deps.experiment.config.search.max_growth,
    ...(parts ? { parts } : {}),
    client: deps.pool.client('mutator'),
    signal: deps.signal,
  });
  const attempt: ProposalAttempt = merged.ok
    ? {
        ok: true,
        proposal: {
          candidate: plan.candidate,
          hypothesis: merged.hypothesis,
          prompt: merged.prompt,
          hash: merged.hash,
        },
        attempts: merged.attempts,
      }
    : {
        ok: false,
        candidate: plan.candidate,
        reason: merged.reason,
        message: merged.message,
        attempts: merged.attempts,
      };
  if (merged.ok) input.claimed.add(merged.hash);
  return {
    plan,
    parent: a as IncumbentView,
    feedback: null,
    attempt,
    merge: {
      other: b as IncumbentView,
      conflicts: merged.conflicts,
      resolved: merged.ok ? merged.resolved : [],
    },
  };
}

function signalScores(view: IncumbentView): SignalScores {
  const { trainScore } = view;
  return {
    total: trainScore.total ?? 0,
    ...(trainScore.checks === undefined ? {} : { checks: trainScore.checks }),
    ...(trainScore.judge === undefined ? {} : { judge: trainScore.judge }),
    ...(trainScore.expectations === undefined ? {} : { expectations: trainScore.expectations }),
  };
}

/**
 * Evaluates a proposed candidate and decides it against its parent
 * (docs/design/paired-acceptance.md).
 */
export async function decideAgainstParent(
  deps: LoopRun,
  { iteration, screening }: { iteration: number; screening: Screening | null },
  proposed: ProposedCandidate,
): Promise<DecidedCandidate> {
  const { plan, parent, attempt } = proposed;
  const merge = proposed.merge ? { merge: proposed.merge } : {};
  if (!attempt.ok) return { plan, parent, attempt, ...merge };
  const result = await evaluateAndDecidePaired(deps, {
    iteration,
    incumbent: parent,
    proposals: [attempt.proposal],
    screening,
    incumbentRetestDir: join(candidatePaths(deps.runDir, iteration, plan.candidate).dir, 'parent-retest'),
  });
  return { plan, parent, proposal: attempt.proposal, result, ...merge };
}

/** The failure of an evaluation that produced no scores. */
export type EvaluationFailure = Extract<CandidateOutcome, { ok: false }>;
