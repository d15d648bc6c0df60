/**
 * The pareto search (docs/design/pareto-search.md):
 *
 *   parents from the front (journaled) ─▶ one mutator request per candidate, from its parent
 *   ─▶ candidates evaluated concurrently, each decided against its own parent (docs/design/paired-acceptance.md)
 *   ─▶ admitted ones enter the pool ─▶ the best moves only on a significant win
 *   ─▶ one closing append ─▶ a new best is committed like a greedy keep
 *
 * Everything a later choice reads is in the journal (parent choices, decisions, members), so a
 * resumed run redoes an unfinished iteration with the same parents and finished ones never.
 * The baseline seeds the pool; the pool's lineage is mirrored in git refs (src/git/pool-refs.ts).
 */
import { standingOf } from '../evaluate/candidate-result.js';
import type { EvaluatedCandidate } from '../evaluate/evaluate-types.js';
import { syncPoolRefs } from '../git/index.js';
import type { Screening } from '../experiment/iteration-plan.js';
import type { PoolState } from '../run/run-state.js';
import { admitToPool, evaluatedOf } from './pareto-admit.js';
import {
  type CandidatePlan,
  type DecidedCandidate,
  decideAgainstParent,
  type ProposedCandidate,
  proposeFromParent,
  proposeMergeOf,
} from './pareto-candidate.js';
import { type CandidateVerdict, candidateDecided, iterationOutcome } from './pareto-outcome.js';
import { parentChosen, planCandidates } from './pareto-plan.js';
import { poolMemberEvent, seedMemberEvent } from './pool-member.js';
import { memberNumber, nextMemberId } from '../run/member-id.js';
import type { SearchStrategy } from './strategy.js';

interface Planned {
  pool: PoolState & { best: string };
  plans: CandidatePlan[];
  trainIds: string[];
  /** The iteration's screening, or null: its minibatch is where each parent's failures come from. */
  screening: Screening | null;
}

interface Proposed {
  pool: PoolState & { best: string };
  trainIds: string[];
  screening: Screening | null;
  proposed: ProposedCandidate[];
}

interface Decided {
  pool: PoolState & { best: string };
  trainIds: string[];
  decided: DecidedCandidate[];
}

export const paretoSearch: SearchStrategy<Planned, Proposed, Decided> = {
  name: 'pareto',

  // The baseline is the pool's seed, p0 (a rebaseline's seed takes the next id); a pool start's
  // other prompts follow it as seeds of the same iteration, p1, p2, ….
  seed: ({ deps, iteration, promptSha256, evaluated, seeds }) => {
    let next = memberNumber(nextMemberId(deps.recorder.state().pool?.members ?? []));
    return [{ candidate: 0, promptSha256, evaluated }, ...seeds].map((s) =>
      seedMemberEvent({ member: `p${next++}`, iteration, ...s }),
    );
  },

  // The pool's lineage in git (docs/design/pareto-search.md): every member journaled so far gets
  // its ref.
  async sync(deps) {
    await syncPoolRefs(deps, deps.recorder.state());
  },

  async plan({ deps, iteration, state, schedule }) {
    const pool = state.pool;
    if (pool === null || pool.best === null) throw new Error('the pareto search: the run has no pool');
    const trainIds = deps.experiment.cases.filter((c) => c.split === 'train').map((c) => c.id);
    const plans = planCandidates(pool, trainIds, deps.experiment.config.search, schedule);
    return {
      events: plans.map((plan) => parentChosen(iteration, plan)),
      phase: plans.some((plan) => plan.kind === 'merge') ? 'merging' : 'mutating',
      plan: { pool: { ...pool, best: pool.best }, plans, trainIds, screening: schedule.screening },
    };
  },

  async propose({ deps, mode }, { pool, plans, trainIds, screening }) {
    const minibatch = screening?.minibatch.map((c) => c.id) ?? null;
    // One set of claimed hashes: two candidates of one iteration never evaluate the same prompt.
    const claimed = new Set<string>();
    const proposed = await Promise.all(
      plans.map((plan) =>
        plan.kind === 'merge'
          ? proposeMergeOf(deps, { pool, plan, claimed })
          : proposeFromParent(deps, { pool, plan, mode, minibatch, claimed }),
      ),
    );
    return {
      attempts: proposed.map((p) => p.attempt),
      mutation: {
        // `strategy` as format 1 readers know it: the mutation mode.
        strategy: mode,
        mode,
        candidates: proposed.map((p) => ({
          candidate: p.plan.candidate,
          parents: p.plan.parents,
          ...(p.feedback ? { feedback: p.feedback } : {}),
          attempt: p.attempt,
          ...(p.merge ? { conflicts: p.merge.conflicts, resolved: p.merge.resolved } : {}),
        })),
      },
      proposed: { pool, trainIds, screening, proposed },
    };
  },

  async evaluate({ deps, iteration }, { pool, trainIds, screening, proposed }) {
    const decided = await Promise.all(
      proposed.map((p) => decideAgainstParent(deps, { iteration, screening }, p)),
    );
    return { deciding: {}, evaluated: { pool, trainIds, decided } };
  },

  async admit({ deps, iteration, incumbent: best }, { pool, trainIds, decided }) {
    const verdicts = await admitToPool(deps, { pool, best, decided, trainIds });
    const keptMember = verdicts.find((v) => v.best?.moved === true)?.member ?? null;
    const outcome = iterationOutcome(verdicts);
    const { about } = outcome;
    const keep = outcome.status === 'keep' ? about : null;
    const members = verdicts.flatMap((verdict, index) => {
      const d = decided[index] as DecidedCandidate;
      const evaluated = evaluatedOf(d);
      return verdict.member !== null && evaluated ? [poolMemberEvent(iteration, d, verdict, evaluated)] : [];
    });
    return {
      status: outcome.status,
      fields: {
        candidate: about.candidate,
        train: about.train,
        holdout: about.holdout,
        // A new best is described against the best it replaced; anything else against its parent.
        delta: keep?.best ? keep.best.paired.train.mean : about.delta,
        ...(keep?.best ? { paired: keep.best.paired } : about.paired ? { paired: about.paired } : {}),
        ...(about.screen ? { screen: about.screen } : {}),
        ...(about.errorKind ? { errorKind: about.errorKind } : {}),
        hypothesis: about.hypothesis,
        promptSha256: about.promptSha256,
        message: keep?.best ? keep.best.reason : about.message,
      },
      events: [
        ...decided.map((d, index) => candidateDecided(iteration, d, verdicts[index] as CandidateVerdict)),
        ...members,
      ],
      decision: {
        search: 'pareto',
        status: outcome.status,
        candidate: about.candidate,
        best: pool.best,
        candidates: decided.map((d, index) => ({
          ...(verdicts[index] as CandidateVerdict),
          kind: d.plan.kind,
          parents: d.plan.parents,
          ...('result' in d && d.result.ok ? { detail: d.result.detail } : {}),
        })),
      },
      keep: keep === null ? null : keptOf(decided, keep, keptMember),
    };
  },
};

function keptOf(decided: readonly DecidedCandidate[], keep: CandidateVerdict, member: string | null) {
  const d = decided.find((x) => x.plan.candidate === keep.candidate) as DecidedCandidate;
  const evaluated = evaluatedOf(d) as EvaluatedCandidate;
  return {
    candidate: keep.candidate,
    prompt: (d as Extract<DecidedCandidate, { proposal: unknown }>).proposal.prompt,
    hypothesis: keep.hypothesis ?? '',
    evaluated,
    standing: standingOf(evaluated.scores),
    ...(member === null ? {} : { member }),
  };
}
