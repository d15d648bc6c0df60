/**
 * One iteration of the pareto search (docs/design/pareto-search.md):
 *
 *   parents from the front (journaled) ─▶ one mutator request per candidate, from its parent
 *   ─▶ candidates evaluated concurrently, each decided against its own parent (docs/design/paired-acceptance.md)
 *   ─▶ admitted ones enter the pool ─▶ the best moves only on a significant win
 *   ─▶ one closing append ─▶ a new best is committed like a greedy keep
 *
 * Everything a later choice reads is in the journal (parent choices, decisions, members), so a
 * resumed run redoes an unfinished iteration with the same parents and finished ones never.
 */
import { standingOf } from '../evaluate/candidate-result.js';
import type { EvaluatedCandidate } from '../evaluate/evaluate-types.js';
import { caseMeansOf } from '../loop/accept-paired.js';
import { finishIteration } from '../loop/finish-iteration.js';
import { type IncumbentView, loadCandidateEvaluation } from '../loop/incumbent.js';
import { checkJudgeDrift } from '../loop/judge-anchors.js';
import type { LoopRun } from '../loop/loop-deps.js';
import { recordKeep } from '../loop/record-keep.js';
import { replayStrategy } from '../loop/strategy.js';
import type { RunEventBody } from '../run/events.js';
import { iterationPaths } from '../run/paths.js';
import { writeReviewJson } from '../run/records.js';
import type { PoolState } from '../run/run-state.js';
import { compareWithBest, pairedLook, settleBest } from './best-comparison.js';
import { minibatchSize } from '../experiment/acceptance.js';
import type { Search } from '../experiment/schema.js';
import { syncPoolRefs } from '../git/index.js';
import { drawMinibatch } from '../loop/accept-paired.js';
import { memberById } from './member-view.js';
import {
  type DecidedCandidate,
  decideAgainstParent,
  proposeFromParent,
  proposeMergeOf,
} from './pareto-candidate.js';
import { type CandidateVerdict, candidateDecided, iterationOutcome, verdictOf } from './pareto-outcome.js';
import { parentChosen, planCandidates } from './pareto-plan.js';
import { poolMemberEvent } from './pool-member.js';
import { liveMembers, memberNumber, nextMemberId } from './pool.js';

export async function runParetoIteration(deps: LoopRun, best: IncumbentView): Promise<IncumbentView> {
  const { experiment, recorder } = deps;
  const { search } = experiment.config;
  const state = recorder.state();
  const pool = state.pool;
  if (pool === null || pool.best === null) throw new Error('runParetoIteration: the run has no pool');
  const iteration = state.nextIteration;
  const startedAt = deps.now();
  const paths = iterationPaths(deps.runDir, iteration);
  const mode = replayStrategy(
    state.iterations.map((it) => it.status),
    search.bold_after,
  ).strategy;
  const train = experiment.cases.filter((c) => c.split === 'train');
  const trainIds = train.map((c) => c.id);
  // The minibatch each candidate is screened on (accept-paired.ts draws the same): its parent's failures come from it.
  const size = minibatchSize(search, train.length);
  const minibatch =
    size < train.length ? drawMinibatch(train, size, search.seed, iteration).map((c) => c.id) : null;

  await recorder.emit({ type: 'iteration_started', iteration, mode });
  const plans = planCandidates(pool, trainIds, search, iteration);
  await recorder.emit(...plans.map((plan) => parentChosen(iteration, plan)));
  const merging = plans.some((plan) => plan.kind === 'merge');
  await recorder.emit({ type: 'phase', iteration, phase: merging ? 'merging' : 'mutating' });

  // One set of claimed hashes: two candidates of one iteration never evaluate the same prompt.
  const claimed = new Set<string>();
  const proposed = await Promise.all(
    plans.map((plan) =>
      plan.kind === 'merge'
        ? proposeMergeOf(deps, { pool, plan, claimed })
        : proposeFromParent(deps, { pool, plan, mode, minibatch, claimed }),
    ),
  );
  await writeReviewJson(paths.mutation, {
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
  });
  await recorder.emit(
    ...proposed.flatMap((p): RunEventBody[] =>
      p.attempt.ok
        ? [
            {
              type: 'proposal',
              iteration,
              candidate: p.attempt.proposal.candidate,
              hypothesis: p.attempt.proposal.hypothesis,
              promptSha256: p.attempt.proposal.hash,
              duplicate: false,
            },
          ]
        : [],
    ),
  );
  deps.checkpoint?.('proposed');

  const decided = await Promise.all(proposed.map((p) => decideAgainstParent(deps, iteration, p)));
  await recorder.emit({ type: 'phase', iteration, phase: 'deciding' });
  const verdicts = await admit(deps, { pool, best, decided, trainIds });
  const keptMember = verdicts.find((v) => v.best?.moved === true)?.member ?? null;
  const outcome = iterationOutcome(verdicts);
  const { about } = outcome;
  const keep = outcome.status === 'keep' ? about : null;

  // Artifacts first, then the journal: a finished iteration is never redone, so its files must exist.
  await writeReviewJson(paths.decision, {
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
  });
  const members = verdicts.flatMap((verdict, index) => {
    const d = decided[index] as DecidedCandidate;
    const evaluated = evaluatedOf(d);
    return verdict.member !== null && evaluated ? [poolMemberEvent(iteration, d, verdict, evaluated)] : [];
  });
  const anchors = await checkJudgeDrift(deps, iteration);
  await finishIteration(
    recorder,
    {
      iteration,
      status: outcome.status,
      incumbentBefore: best.train,
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
      spend: deps.spend.take({ iteration }),
      seconds: (deps.now().getTime() - startedAt.getTime()) / 1000,
    },
    [
      ...decided.map((d, index) => candidateDecided(iteration, d, verdicts[index] as CandidateVerdict)),
      ...members,
      ...anchors,
    ],
  );
  // The pool's lineage in git (docs/design/pareto-search.md): every member journaled so far gets
  // its ref.
  await syncPoolRefs(deps, recorder.state());
  if (keep === null) return best;
  const d = decided.find((x) => x.plan.candidate === keep.candidate) as DecidedCandidate;
  const evaluated = evaluatedOf(d) as EvaluatedCandidate;
  const prompt = (d as Extract<DecidedCandidate, { proposal: unknown }>).proposal.prompt;
  const standing = standingOf(evaluated.scores);
  await recordKeep(deps, {
    iteration,
    prompt,
    from: best.train,
    to: standing.train,
    hypothesis: keep.hypothesis ?? '',
    ...(keptMember === null ? {} : { member: keptMember }),
  });
  return {
    iteration,
    candidate: keep.candidate,
    prompt,
    train: standing.train,
    holdout: standing.holdout,
    eligible: standing.eligible,
    evaluation: evaluated.evaluation,
    trainScore: evaluated.scores.train,
    scores: evaluated.scores,
  };
}

/**
 * Admission: every candidate docs/design/paired-acceptance.md kept against its parent becomes the
 * next member (in candidate order) and is compared with the best; at most one moves it
 * (best-comparison.ts).
 */
async function admit(
  deps: LoopRun,
  input: { pool: PoolState; best: IncumbentView; decided: readonly DecidedCandidate[]; trainIds: string[] },
): Promise<CandidateVerdict[]> {
  const { pool, best, decided, trainIds } = input;
  const { search } = deps.experiment.config;
  const holdoutIds = deps.experiment.cases.filter((c) => c.split === 'holdout').map((c) => c.id);
  const verdicts = decided.map((d) => {
    const verdict = verdictOf(d);
    return d.merge ? againstOther(verdict, d, { trainIds, holdoutIds, search }) : verdict;
  });
  const pooled = verdicts.filter((v) => v.status === 'pooled');
  if (pooled.length === 0) return verdicts;
  const bestId = pool.best as string;
  const seed = liveMembers(pool.members)[0] ?? memberById(pool, bestId);
  const stored = await loadCandidateEvaluation(deps.runDir, seed.iteration, seed.candidate);
  const baseline = caseMeansOf(stored.scores, stored.evaluation.samples);
  const bestMeans = caseMeansOf(best.scores, best.evaluation.samples);
  let next = memberNumber(nextMemberId(pool.members));
  const compared = pooled.map((verdict) => {
    const d = decided.find((x) => x.plan.candidate === verdict.candidate) as DecidedCandidate;
    const evaluated = evaluatedOf(d) as EvaluatedCandidate;
    const member = `p${next++}`;
    const kept = d.plan.parents[0] === bestId && verdict.paired ? { keptAgainstBest: verdict.paired } : {};
    return {
      member,
      candidate: verdict.candidate,
      verdict: compareWithBest({
        against: bestId,
        candidate: caseMeansOf(evaluated.scores, evaluated.evaluation.samples),
        candidateEligible: verdict.eligible,
        best: bestMeans,
        bestEligible: best.eligible,
        baseline,
        trainIds,
        holdoutIds,
        confidence: search.confidence,
        minEffect: search.min_effect,
        ...kept,
      }),
    };
  });
  const settled = settleBest(compared).entries;
  return verdicts.map((verdict) => {
    const entry = settled.find((e) => e.candidate === verdict.candidate);
    return entry ? { ...verdict, member: entry.member, best: entry.verdict.comparison } : verdict;
  });
}

/**
 * A merge enters the pool only if docs/design/paired-acceptance.md keeps it against both members
 * (docs/design/pareto-search.md): against the first it was decided like any candidate; against the
 * second from stored per-case means, one look at `search.confidence`.
 */
function againstOther(
  verdict: CandidateVerdict,
  decided: DecidedCandidate,
  input: { trainIds: readonly string[]; holdoutIds: readonly string[]; search: Search },
): CandidateVerdict {
  const evaluated = evaluatedOf(decided);
  const other = decided.merge?.other;
  if (verdict.status !== 'pooled' || evaluated === null || other === undefined) return verdict;
  const look = pairedLook({
    candidate: caseMeansOf(evaluated.scores, evaluated.evaluation.samples),
    candidateEligible: verdict.eligible,
    against: caseMeansOf(other.scores, other.evaluation.samples),
    againstEligible: other.eligible,
    trainIds: input.trainIds,
    holdoutIds: input.holdoutIds,
    confidence: input.search.confidence,
    minEffect: input.search.min_effect,
  });
  const otherId = decided.plan.parents[1] as string;
  const { status } = look.decision;
  if (status === 'keep') return { ...verdict, pairedOther: look.record };
  return {
    ...verdict,
    // A last look never asks for a retest.
    status: status === 'retest' ? 'inconclusive' : status,
    pairedOther: look.record,
    message: `kept against ${decided.plan.parents[0]}, but against ${otherId}: ${look.decision.reason}`,
  };
}

function evaluatedOf(decided: DecidedCandidate): EvaluatedCandidate | null {
  return 'result' in decided && decided.result.ok ? decided.result.chosen.outcome : null;
}
