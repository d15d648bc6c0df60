/**
 * A search strategy: what the one iteration body (src/loop/iteration.ts) asks of the search,
 * and all it knows of it. The body starts the iteration, then calls, in order:
 *
 *   plan ─▶ propose ─▶ evaluate (each candidate, decided where the search decides per candidate)
 *   ─▶ admit (what the candidates do to the search's state: the status, the record, a keep)
 *
 * and journals the end, syncs, and commits a keep. The baseline asks `seed` what the search
 * keeps of the starting prompt. Greedy (greedy.ts) and pareto (pareto.ts) implement it; a
 * strategy's state lives in the journal (the events it returns), so a resumed run replans an
 * unfinished iteration from the same state.
 */
import type { EvaluatedCandidate } from '../evaluate/evaluate-types.js';
import type { IterationPlan } from '../experiment/iteration-plan.js';
import type { IterationEnd } from '../loop/finish-iteration.js';
import type { IncumbentView } from '../loop/incumbent.js';
import type { LoopRun } from '../loop/loop-deps.js';
import type { ProposalAttempt } from '../loop/propose.js';
import type { Strategy as Mode } from '../loop/strategy.js';
import type { DecisionRecord } from '../run/decision-record.js';
import type { IterationStatus, RunEventBody } from '../run/events.js';
import type { MutationRecord } from '../run/mutation-record.js';
import type { RunState } from '../run/run-state.js';

/** What every step of one iteration reads. */
export interface IterationStart {
  deps: LoopRun;
  iteration: number;
  /** focused or bold, replayed from the statuses so far (src/loop/strategy.ts). */
  mode: Mode;
  /** The prompt the run would ship now (pareto: the pool's best). */
  incumbent: IncumbentView;
  /** The run state as the iteration began (before its `iteration_started`). */
  state: RunState;
  /**
   * What the iteration is made of (proposals, screening minibatch, a due merge, retests): the
   * plan the call estimate counts too (src/experiment/iteration-plan.ts).
   */
  schedule: IterationPlan;
}

export interface PlannedIteration<Plan> {
  /** Journaled before the mutator is asked (pareto: `parent_chosen`), so a redo asks the same. */
  events: RunEventBody[];
  phase: 'mutating' | 'merging';
  plan: Plan;
}

export interface ProposedIteration<Proposed> {
  /** One per candidate, in candidate order: the usable ones become `proposal` events. */
  attempts: readonly ProposalAttempt[];
  /** mutation.json. */
  mutation: MutationRecord;
  proposed: Proposed;
}

export interface EvaluatedIteration<Evaluated> {
  /** The `deciding` phase to show (a candidate it is about, or none), or null: nothing to decide. */
  deciding: { candidate?: number } | null;
  evaluated: Evaluated;
}

export interface Admission {
  status: IterationStatus;
  /** `iteration_finished` past iteration, status and incumbentBefore (their order is the event's). */
  fields: Omit<IterationEnd, 'iteration' | 'status' | 'incumbentBefore' | 'spend' | 'seconds'>;
  /** Journaled with the end, ahead of it (pareto: `candidate_decided`, `pool_member`). */
  events: RunEventBody[];
  /** decision.json: written before the end is journaled. */
  decision: DecisionRecord;
  /** The candidate that becomes the incumbent, or null. */
  keep: Keep | null;
}

export interface Keep {
  candidate: number;
  prompt: string;
  hypothesis: string;
  evaluated: EvaluatedCandidate;
  /** The scores it is kept with (greedy's `confirm`: the mean of two evaluations). */
  standing: { train: number; holdout: number | null; eligible: boolean };
  /** Pareto: the pool member that became the best (the commit's `Autoresearch-Pool` trailer). */
  member?: string;
}

export interface SeedInput {
  deps: LoopRun;
  iteration: number;
  promptSha256: string;
  /** The baseline's (first) evaluation. */
  evaluated: EvaluatedCandidate;
  /** A pool start's other prompts, each evaluated beside the baseline as a candidate of its iteration. */
  seeds: readonly {
    candidate: number;
    origin: string;
    promptSha256: string;
    evaluated: EvaluatedCandidate;
  }[];
}

export interface SearchStrategy<Plan = unknown, Proposed = unknown, Evaluated = unknown> {
  readonly name: string;
  /** Events journaled with the baseline's end (pareto: the pool's seed member). */
  seed(input: SeedInput): RunEventBody[];
  /**
   * Brings up to date what the search derives from the journal outside it (pareto: the pool's
   * git refs). Idempotent: run when the loop starts and after every iteration's end.
   */
  sync(deps: LoopRun): Promise<void>;
  plan(start: IterationStart): Promise<PlannedIteration<Plan>>;
  propose(start: IterationStart, plan: Plan): Promise<ProposedIteration<Proposed>>;
  evaluate(start: IterationStart, proposed: Proposed): Promise<EvaluatedIteration<Evaluated>>;
  admit(start: IterationStart, evaluated: Evaluated): Promise<Admission>;
}
