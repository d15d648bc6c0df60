/**
 * What a pareto iteration's candidates add up to (docs/design/pareto-search.md), pure: each
 * candidate's verdict as `candidate_decided` journals it, and the iteration's own status —
 * `keep` when the best moved, `pooled` when a member entered but the best stayed, otherwise the
 * lead candidate's status — with the candidate that status is about.
 */
import type { CandidateVerdict } from '../run/decision-record.js';
import { standingOf } from '../evaluate/candidate-result.js';
import type { IterationStatus, RunEventBody } from '../run/events.js';
import type { DecidedCandidate } from './pareto-candidate.js';

export type { CandidateVerdict };

/**
 * A candidate's verdict against its parent (`pooled` for docs/design/paired-acceptance.md's keep),
 * before admission.
 */
export function verdictOf(decided: DecidedCandidate): CandidateVerdict {
  const verdict = againstParent(decided);
  return decided.merge ? { ...verdict, conflicts: decided.merge.conflicts } : verdict;
}

function againstParent(decided: DecidedCandidate): CandidateVerdict {
  const candidate = decided.plan.candidate;
  if ('attempt' in decided) {
    const { attempt } = decided;
    return {
      candidate,
      status: attempt.reason === 'duplicate' ? 'duplicate' : 'error',
      member: null,
      train: null,
      holdout: null,
      eligible: false,
      delta: null,
      ...(attempt.reason === 'duplicate'
        ? {}
        : {
            errorKind:
              attempt.reason === 'provider' ? ('provider_error' as const) : ('mutator_error' as const),
          }),
      message: attempt.message,
      hypothesis: null,
      promptSha256: null,
    };
  }
  const { proposal, result } = decided;
  const common = { candidate, member: null, hypothesis: proposal.hypothesis, promptSha256: proposal.hash };
  if (!result.ok)
    return {
      ...common,
      status: 'error',
      train: null,
      holdout: null,
      eligible: false,
      delta: null,
      errorKind: result.failure.errorKind,
      message: result.failure.message,
    };
  const scores = standingOf(result.chosen.outcome.scores);
  const screenedOut = result.status === 'screened_out';
  const screen = result.chosen.screen;
  return {
    ...common,
    status: result.status === 'keep' ? 'pooled' : result.status,
    // A screened-out candidate was scored on its minibatch only: no train or holdout score.
    train: screenedOut ? null : scores.train,
    holdout: screenedOut ? null : scores.holdout,
    eligible: scores.eligible,
    delta: result.paired?.train.mean ?? null,
    ...(result.paired ? { paired: result.paired } : {}),
    ...(screen ? { screen: { ...screen, callsSaved: result.callsSaved } } : {}),
    message: result.reason,
  };
}

export function candidateDecided(
  iteration: number,
  decided: DecidedCandidate,
  verdict: CandidateVerdict,
): RunEventBody {
  return {
    type: 'candidate_decided',
    iteration,
    candidate: verdict.candidate,
    kind: decided.plan.kind,
    parents: [...decided.plan.parents],
    status: verdict.status,
    member: verdict.member,
    train: verdict.train,
    holdout: verdict.holdout,
    delta: verdict.delta,
    ...(verdict.paired ? { paired: verdict.paired } : {}),
    ...(verdict.pairedOther ? { pairedOther: verdict.pairedOther } : {}),
    ...(verdict.conflicts === undefined ? {} : { conflicts: verdict.conflicts }),
    ...(verdict.screen ? { screen: verdict.screen } : {}),
    ...(verdict.best ? { best: verdict.best } : {}),
    ...(verdict.errorKind ? { errorKind: verdict.errorKind } : {}),
    message: verdict.message,
    hypothesis: verdict.hypothesis,
    promptSha256: verdict.promptSha256,
  };
}

export interface IterationOutcome {
  status: IterationStatus;
  /** The candidate the status is about. */
  about: CandidateVerdict;
}

/**
 * The iteration's status: `keep` for the member that moved the best; `pooled` for the admitted
 * member with the largest delta against its parent; else the lead — the evaluated candidate
 * with the largest delta (then the largest screen mean), or, when none was evaluated, the first
 * candidate (`duplicate` only when every candidate was one).
 */
export function iterationOutcome(verdicts: readonly CandidateVerdict[]): IterationOutcome {
  const moved = verdicts.find((v) => v.best?.moved === true);
  if (moved) return { status: 'keep', about: moved };
  const pooled = verdicts.filter((v) => v.member !== null);
  if (pooled.length > 0) return { status: 'pooled', about: largest(pooled, rank) };
  const evaluated = verdicts.filter((v) => v.delta !== null || v.screen !== undefined);
  if (evaluated.length > 0) {
    const about = largest(evaluated, rank);
    return { status: about.status, about };
  }
  const first = verdicts[0];
  if (!first) throw new Error('iterationOutcome: an iteration has at least one candidate');
  if (verdicts.every((v) => v.status === 'duplicate')) return { status: 'duplicate', about: first };
  const error = verdicts.find((v) => v.status === 'error') ?? first;
  return { status: 'error', about: error };
}

/** A decided candidate ranks by its delta; one screened out (no delta) below, by its screen mean. */
function rank(v: CandidateVerdict): [number, number] {
  if (v.delta !== null) return [1, v.delta];
  return [0, v.screen?.mean ?? Number.NEGATIVE_INFINITY];
}

/** The first item with the largest key (compared in order). */
function largest<T>(items: readonly T[], key: (item: T) => [number, number]): T {
  let best = items[0] as T;
  for (const item of items.slice(1)) {
    const [k0, k1] = key(item);
    const [b0, b1] = key(best);
    if (k0 > b0 || (k0 === b0 && k1 > b1)) best = item;
  }
  return best;
}
