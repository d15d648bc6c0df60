/**
 * The greedy search: every candidate revises the incumbent, with the incumbent's feedback and
 * the run's history of attempts; the best of them is decided against the incumbent — under
 * paired acceptance (docs/design/paired-acceptance.md, src/loop/accept-paired.ts) or under version
 * 1's margin (src/loop/decide.ts, optionally confirmed with fresh samples) — and a keep replaces
 * it. The search keeps no state of its own: the incumbent is the run state's.
 */
import { standingOf } from '../evaluate/candidate-result.js';
import type { CandidateOutcome, EvaluatedCandidate } from '../evaluate/evaluate-types.js';
import { evaluate } from '../evaluate/evaluate.js';
import { evaluateAndDecidePaired, type PairedResult } from '../loop/accept-paired.js';
import { candidateDeps, candidateRequest } from '../loop/candidate-request.js';
import { type Decision, type DecisionSide, decide, pickBestCandidate } from '../loop/decide.js';
import { feedbackFor, proposalPartsOf } from '../loop/incumbent-feedback.js';
import { acceptanceFor, currentMargin, historyOf } from '../loop/loop-state.js';
import { type Proposal, type ProposalAttempt, proposeCandidates } from '../loop/propose.js';
import { countChars } from '../loop/text.js';
import type { MutatorFeedback } from '../protocol/mutation.js';
import type { DecisionRecord } from '../run/decision-record.js';
import type { ErrorKind } from '../run/events.js';
import type { Admission, IterationStart, SearchStrategy } from './strategy.js';

interface Proposed {
  feedback: MutatorFeedback;
  attempts: readonly ProposalAttempt[];
  proposals: Proposal[];
}

interface Scored {
  proposal: Proposal;
  outcome: EvaluatedCandidate;
  side: DecisionSide;
  train: number;
  eligible: boolean;
  chars: number;
}

type Evaluated =
  | { kind: 'unproposed'; attempts: readonly ProposalAttempt[] }
  | { kind: 'failed'; failure: Extract<CandidateOutcome, { ok: false }>; proposals: Proposal[] }
  | { kind: 'paired'; result: Extract<PairedResult, { ok: true }> }
  | { kind: 'margin'; best: Scored; scored: Scored[] };

export const greedySearch: SearchStrategy<MutatorFeedback, Proposed, Evaluated> = {
  name: 'greedy',
  seed: () => [],
  sync: async () => undefined,

  async plan({ deps, incumbent, state, mode }) {
    const feedback = await feedbackFor(deps.experiment, deps.runDir, incumbent, historyOf(state), mode);
    return { events: [], phase: 'mutating', plan: feedback };
  },

  async propose({ deps, incumbent, mode, schedule }, feedback) {
    const { search } = deps.experiment.config;
    const parts = proposalPartsOf(deps.experiment);
    const attempts = await proposeCandidates({
      feedback,
      incumbent: incumbent.prompt,
      triedHashes: deps.recorder.triedPrompts(incumbent.prompt),
      count: schedule.candidates,
      maxGrowth: search.max_growth,
      ...(parts ? { parts } : {}),
      client: deps.pool.client('mutator'),
      signal: deps.signal,
    });
    const proposals = attempts.flatMap((a) => (a.ok ? [a.proposal] : []));
    return {
      attempts,
      mutation: { strategy: mode, feedback, attempts },
      proposed: { feedback, attempts, proposals },
    };
  },

  async evaluate({ deps, iteration, incumbent, schedule }, { attempts, proposals }) {
    if (proposals.length === 0) return { deciding: null, evaluated: { kind: 'unproposed', attempts } };
    if (acceptanceFor(deps) === 'paired') {
      const result = await evaluateAndDecidePaired(deps, {
        iteration,
        incumbent,
        proposals,
        screening: schedule.screening,
      });
      if (!result.ok)
        return { deciding: null, evaluated: { kind: 'failed', failure: result.failure, proposals } };
      return {
        deciding: { candidate: result.chosen.proposal.candidate },
        evaluated: { kind: 'paired', result },
      };
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
      const failure = outcomes.find((o) => !o.outcome.ok)?.outcome as Extract<
        CandidateOutcome,
        { ok: false }
      >;
      return { deciding: null, evaluated: { kind: 'failed', failure, proposals } };
    }
    return { deciding: { candidate: best.proposal.candidate }, evaluated: { kind: 'margin', best, scored } };
  },

  async admit(start, evaluated) {
    switch (evaluated.kind) {
      case 'unproposed':
        return unproposed(evaluated.attempts);
      case 'failed': {
        const { failure, proposals } = evaluated;
        const kind: ErrorKind = failure.errorKind;
        return {
          status: 'error',
          fields: { errorKind: kind, message: failure.message, hypothesis: proposals[0]?.hypothesis ?? null },
          events: [],
          decision: { status: 'error', errorKind: kind, reason: failure.message },
          keep: null,
        };
      }
      case 'paired':
        return admitPaired(start, evaluated.result);
      case 'margin':
        return admitByMargin(start, evaluated.best, evaluated.scored);
    }
  },
};

/** No usable proposal: every attempt a duplicate, or the mutator failed. */
function unproposed(attempts: readonly ProposalAttempt[]): Admission {
  const allDuplicates = attempts.every((a) => !a.ok && a.reason === 'duplicate');
  const messages = attempts.flatMap((a) => (a.ok ? [] : [a.message])).join('; ');
  const decision: DecisionRecord = { status: allDuplicates ? 'duplicate' : 'error', reason: messages };
  if (allDuplicates)
    return { status: 'duplicate', fields: { message: messages }, events: [], decision, keep: null };
  const provider = attempts.some((a) => !a.ok && a.reason === 'provider');
  return {
    status: 'error',
    fields: { errorKind: provider ? 'provider_error' : 'mutator_error', message: messages },
    events: [],
    decision,
    keep: null,
  };
}

function admitPaired({ incumbent }: IterationStart, result: Extract<PairedResult, { ok: true }>): Admission {
  const { chosen } = result;
  const standing = standingOf(chosen.outcome.scores);
  const screenedOut = result.status === 'screened_out';
  return {
    status: result.status,
    fields: {
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
    },
    events: [],
    decision: {
      status: result.status,
      reason: result.reason,
      chosen: chosen.proposal.candidate,
      incumbent: { iteration: incumbent.iteration, candidate: incumbent.candidate },
      ...result.detail,
    },
    keep:
      result.status === 'keep'
        ? {
            candidate: chosen.proposal.candidate,
            prompt: chosen.proposal.prompt,
            hypothesis: chosen.proposal.hypothesis,
            evaluated: chosen.outcome,
            standing,
          }
        : null,
  };
}

/** Version 1's rule: the best candidate against the incumbent plus a margin, confirmed with fresh samples when asked. */
async function admitByMargin(
  { deps, iteration, incumbent }: IterationStart,
  best: Scored,
  scored: readonly Scored[],
): Promise<Admission> {
  const { search } = deps.experiment.config;
  const margin = currentMargin(deps.recorder.state(), search.min_improvement);
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
  return {
    status: decision.status,
    fields: {
      candidate: chosen.proposal.candidate,
      train: chosen.side.train,
      holdout: chosen.side.holdout,
      delta: decision.delta,
      hypothesis: chosen.proposal.hypothesis,
      promptSha256: chosen.proposal.hash,
      message: decision.reason,
    },
    events: [],
    decision: {
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
    },
    keep:
      decision.status === 'keep'
        ? {
            candidate: chosen.proposal.candidate,
            prompt: chosen.proposal.prompt,
            hypothesis: chosen.proposal.hypothesis,
            evaluated: chosen.outcome,
            standing: chosen.side,
          }
        : null,
  };
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
