/**
 * One iteration, in the order the product describes it: propose → evaluate the candidates
 * (generate, check, judge, grade, score) → pick the best → decide against the incumbent
 * (optionally confirming with fresh samples) → record → commit a keep.
 */
import { type Standing, standingOf } from '../evaluate/candidate-result.js';
import type { CandidateOutcome, EvaluatedCandidate } from '../evaluate/evaluate-types.js';
import { writeReviewJson } from '../run/records.js';
import { iterationPaths } from '../run/paths.js';
import type { ErrorKind, IterationStatus, RunEventBody } from '../run/events.js';
import { feedbackFor, proposalPartsOf } from './incumbent-feedback.js';
import { type Decision, type DecisionSide, decide, pickBestCandidate } from './decide.js';
import { evaluate } from '../evaluate/evaluate.js';
import { candidateDeps, candidateRequest } from './candidate-request.js';
import { finishIteration, type IterationEnd } from './finish-iteration.js';
import type { IncumbentView } from './incumbent.js';
import type { LoopRun } from './loop-deps.js';
import { type Proposal, proposeCandidates } from './propose.js';
import { recordKeep } from './record-keep.js';
import { replayStrategy } from './strategy.js';
import { countChars } from './text.js';
import { acceptanceFor, currentMargin, historyOf, modeField } from './loop-state.js';
import { evaluateAndDecidePaired } from './accept-paired.js';
import { checkJudgeDrift } from './judge-anchors.js';

interface Scored {
  proposal: Proposal;
  outcome: EvaluatedCandidate;
  side: DecisionSide;
  train: number;
  eligible: boolean;
  chars: number;
}

export async function runIteration(deps: LoopRun, incumbent: IncumbentView): Promise<IncumbentView> {
  const { experiment, recorder } = deps;
  const { search } = experiment.config;
  const iteration = recorder.state().nextIteration;
  const startedAt = deps.now();
  const state = recorder.state();
  const strategy = replayStrategy(
    state.iterations.map((it) => it.status),
    search.bold_after,
  ).strategy;

  await recorder.emit({ type: 'iteration_started', iteration, ...modeField(deps, strategy) });
  await recorder.emit({ type: 'phase', iteration, phase: 'mutating' });

  const feedback = feedbackFor(experiment, incumbent, historyOf(state), strategy);
  const parts = proposalPartsOf(experiment);
  const attempts = await proposeCandidates({
    feedback,
    incumbent: incumbent.prompt,
    triedHashes: recorder.triedPrompts(incumbent.prompt),
    count: search.candidates,
    maxGrowth: search.max_growth,
    ...(parts ? { parts } : {}),
    client: deps.pool.client('mutator'),
    signal: deps.signal,
  });
  const paths = iterationPaths(deps.runDir, iteration);
  await writeReviewJson(paths.mutation, { strategy, feedback, attempts });
  await recorder.emit(
    ...attempts.flatMap((a): RunEventBody[] =>
      a.ok
        ? [
            {
              type: 'proposal',
              iteration,
              candidate: a.proposal.candidate,
              hypothesis: a.proposal.hypothesis,
              promptSha256: a.proposal.hash,
              duplicate: false,
            },
          ]
        : [],
    ),
  );
  deps.checkpoint?.('proposed');

  const proposals = attempts.flatMap((a) => (a.ok ? [a.proposal] : []));
  const finish = async (
    status: IterationStatus,
    fields: Omit<IterationEnd, 'iteration' | 'status' | 'spend' | 'seconds'> = {},
  ) => {
    // A drift check when one is due (docs/design/judge-reliability.md), journaled with the
    // iteration's end.
    const anchors = await checkJudgeDrift(deps, iteration);
    await finishIteration(
      recorder,
      {
        iteration,
        status,
        incumbentBefore: incumbent.train,
        ...fields,
        spend: deps.spend.take({ iteration }),
        seconds: (deps.now().getTime() - startedAt.getTime()) / 1000,
      },
      anchors,
    );
  };

  if (proposals.length === 0) {
    const allDuplicates = attempts.every((a) => !a.ok && a.reason === 'duplicate');
    const messages = attempts.flatMap((a) => (a.ok ? [] : [a.message])).join('; ');
    await writeReviewJson(paths.decision, {
      status: allDuplicates ? 'duplicate' : 'error',
      reason: messages,
    });
    if (allDuplicates) await finish('duplicate', { message: messages });
    else {
      const provider = attempts.some((a) => !a.ok && a.reason === 'provider');
      await finish('error', { errorKind: provider ? 'provider_error' : 'mutator_error', message: messages });
    }
    return incumbent;
  }

  if (acceptanceFor(deps) === 'paired') {
    const result = await evaluateAndDecidePaired(deps, { iteration, incumbent, proposals });
    if (!result.ok) {
      await writeReviewJson(paths.decision, {
        status: 'error',
        errorKind: result.failure.errorKind,
        reason: result.failure.message,
      });
      await finish('error', {
        errorKind: result.failure.errorKind,
        message: result.failure.message,
        hypothesis: proposals[0]?.hypothesis ?? null,
      });
      return incumbent;
    }
    const { chosen } = result;
    const standing = standingOf(chosen.outcome.scores);
    await recorder.emit({
      type: 'phase',
      iteration,
      phase: 'deciding',
      candidate: chosen.proposal.candidate,
    });
    await writeReviewJson(paths.decision, {
      status: result.status,
      reason: result.reason,
      chosen: chosen.proposal.candidate,
      incumbent: { iteration: incumbent.iteration, candidate: incumbent.candidate },
      ...result.detail,
    });
    const screenedOut = result.status === 'screened_out';
    await finish(result.status, {
      candidate: chosen.proposal.candidate,
      // A screened-out candidate was scored on its minibatch only: no train or holdout score.
      train: screenedOut ? null : standing.train,
      holdout: screenedOut ? null : standing.holdout,
      delta: result.paired?.train.mean ?? null,
      ...(result.paired ? { paired: result.paired } : {}),
      ...(chosen.screen ? { screen: { ...chosen.screen, callsSaved: result.callsSaved } } : {}),
      hypothesis: chosen.proposal.hypothesis,
      promptSha256: chosen.proposal.hash,
      message: result.reason,
    });
    if (result.status !== 'keep') return incumbent;
    return keepCandidate(deps, incumbent, {
      iteration,
      proposal: chosen.proposal,
      outcome: chosen.outcome,
      standing,
    });
  }

  const outcomes = await Promise.all(
    proposals.map(async (proposal) => ({
      proposal,
      outcome: (
        await evaluate(
          candidateRequest(deps, {
            iteration,
            candidate: proposal.candidate,
            prompt: proposal.prompt,
            sampleBase: 0,
          }),
          candidateDeps(deps, iteration),
        )
      ).outcome,
    })),
  );

  const scored: Scored[] = outcomes.flatMap(({ proposal, outcome }) =>
    outcome.ok ? [toScored(proposal, outcome)] : [],
  );
  const best = pickBestCandidate(scored);
  if (!best) {
    const failure = outcomes.find((o) => !o.outcome.ok)?.outcome as Extract<CandidateOutcome, { ok: false }>;
    const kind: ErrorKind = failure.errorKind;
    await writeReviewJson(paths.decision, { status: 'error', errorKind: kind, reason: failure.message });
    await finish('error', {
      errorKind: kind,
      message: failure.message,
      hypothesis: proposals[0]?.hypothesis ?? null,
    });
    return incumbent;
  }

  await recorder.emit({ type: 'phase', iteration, phase: 'deciding', candidate: best.proposal.candidate });
  const margin = currentMargin(recorder.state(), search.min_improvement);
  const incumbentSide: DecisionSide = {
    train: incumbent.train,
    holdout: incumbent.holdout,
    eligible: incumbent.eligible,
    chars: countChars(incumbent.prompt),
  };
  let decision: Decision = decide({ candidate: best.side, incumbent: incumbentSide, margin });
  let chosen = best;
  if (decision.status === 'keep' && search.confirm) {
    const request = candidateRequest(deps, {
      iteration,
      candidate: best.proposal.candidate,
      prompt: best.proposal.prompt,
      sampleBase: search.samples,
      repeat: 1,
    });
    const { outcome: confirmation } = await evaluate(request, candidateDeps(deps, iteration));
    if (confirmation.ok) {
      const again = toScored(best.proposal, confirmation);
      chosen = { ...best, side: averageSides(best.side, again.side) };
      decision = decide({ candidate: chosen.side, incumbent: incumbentSide, margin });
    }
  }

  await writeReviewJson(paths.decision, {
    status: decision.status,
    reason: decision.reason,
    delta: decision.delta,
    margin,
    chosen: chosen.proposal.candidate,
    candidate: chosen.side,
    incumbent: { iteration: incumbent.iteration, ...incumbentSide },
    candidates: scored.map((s) => ({
      candidate: s.proposal.candidate,
      ...s.side,
      hypothesis: s.proposal.hypothesis,
    })),
    confirmed: search.confirm,
  });
  await finish(decision.status, {
    candidate: chosen.proposal.candidate,
    train: chosen.side.train,
    holdout: chosen.side.holdout,
    delta: decision.delta,
    hypothesis: chosen.proposal.hypothesis,
    promptSha256: chosen.proposal.hash,
    message: decision.reason,
  });
  if (decision.status !== 'keep') return incumbent;

  return keepCandidate(deps, incumbent, {
    iteration,
    proposal: chosen.proposal,
    outcome: chosen.outcome,
    standing: chosen.side,
  });
}

/** The kept candidate becomes the incumbent: committed, and the view the next iteration compares with. */
async function keepCandidate(
  deps: LoopRun,
  incumbent: IncumbentView,
  kept: { iteration: number; proposal: Proposal; outcome: EvaluatedCandidate; standing: Standing },
): Promise<IncumbentView> {
  const { standing } = kept;
  const next: IncumbentView = {
    iteration: kept.iteration,
    candidate: kept.proposal.candidate,
    prompt: kept.proposal.prompt,
    train: standing.train,
    holdout: standing.holdout,
    eligible: standing.eligible,
    evaluation: kept.outcome.evaluation,
    trainScore: kept.outcome.scores.train,
    scores: kept.outcome.scores,
  };
  await recordKeep(deps, {
    iteration: kept.iteration,
    prompt: next.prompt,
    from: incumbent.train,
    to: next.train,
    hypothesis: kept.proposal.hypothesis,
  });
  return next;
}

function toScored(proposal: Proposal, outcome: EvaluatedCandidate): Scored {
  const standing = standingOf(outcome.scores);
  const chars = countChars(proposal.prompt);
  return {
    proposal,
    outcome,
    train: standing.train,
    eligible: standing.eligible,
    chars,
    side: { ...standing, chars },
  };
}

function averageSides(a: DecisionSide, b: DecisionSide): DecisionSide {
  return {
    train: (a.train + b.train) / 2,
    holdout: a.holdout === null || b.holdout === null ? null : (a.holdout + b.holdout) / 2,
    eligible: a.eligible && b.eligible,
    chars: a.chars,
  };
}
