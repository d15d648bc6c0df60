/**
 * The iteration half of the run-state fold: attempts as they progress, the record each
 * finished iteration leaves, the incumbent and baseline, and the in-a-row counters behind
 * patience, the error stop and bold mode (each moved by the one streak rule, streaks.ts).
 */
import { type EventOf, modeOf } from './events.js';
import { advanceCounters } from './streaks.js';
import type { EvaluationRecord, IterationRecord, OpenIteration, RunState, Signals } from './run-state.js';

/** The part of the draft state this fold reads and writes. */
export type IterationDraft = Pick<
  RunState,
  'incumbent' | 'baseline' | 'counters' | 'commits' | 'pendingRebaseline'
> & {
  /** Per iteration number: the latest attempt's progress (started or only seen in events). */
  attempts: Map<number, OpenIteration>;
  /** Per iteration number: the latest finished outcome. */
  records: Map<number, IterationRecord>;
};

export function startIteration(draft: IterationDraft, event: EventOf<'iteration_started'>): void {
  // Another iteration left unfinished can never finish now: it was interrupted.
  for (const [number, attempt] of draft.attempts) {
    if (number !== event.iteration && attempt.startedAt !== '') {
      recordIteration(draft, abandoned(attempt, event.at));
      draft.attempts.delete(number);
    }
  }
  const previous =
    draft.attempts.get(event.iteration)?.attempts ?? draft.records.get(event.iteration)?.attempts ?? 0;
  draft.attempts.set(event.iteration, {
    ...emptyAttempt(event.iteration),
    strategy: modeOf(event),
    startedAt: event.at,
    attempts: previous + 1,
  });
}

export function finishIteration(draft: IterationDraft, event: EventOf<'iteration_finished'>): void {
  const attempt = draft.attempts.get(event.iteration) ?? emptyAttempt(event.iteration);
  draft.attempts.delete(event.iteration);
  const chosen = attempt.evaluations.filter((e) => e.candidate === event.candidate);
  const commit =
    attempt.commit ?? draft.commits.findLast((c) => c.iteration === event.iteration)?.sha ?? null;
  updateIncumbent(draft, event, chosen, commit);
  draft.counters = advanceCounters(draft.counters, event.status);
  recordIteration(draft, {
    iteration: event.iteration,
    status: event.status,
    strategy: attempt.startedAt === '' ? null : attempt.strategy,
    candidate: event.candidate,
    train: event.train,
    holdout: event.holdout,
    incumbentBefore: event.incumbentBefore,
    delta: event.delta,
    paired: event.paired ?? null,
    screen: event.screen ?? null,
    best: draft.incumbent?.train ?? null,
    signals: averageSignals(chosen),
    ...judgeAlphaOf(chosen),
    gateFailure: chosen.find((e) => e.gateFailure !== null)?.gateFailure ?? null,
    hypothesis: event.hypothesis,
    promptSha256: event.promptSha256,
    commit: event.status === 'keep' ? commit : null,
    costUsd: event.costUsd,
    seconds: event.seconds,
    errorKind: event.errorKind ?? null,
    message: event.message ?? null,
    attempts: Math.max(attempt.attempts, draft.records.get(event.iteration)?.attempts ?? 0, 1),
    startedAt: attempt.startedAt === '' ? null : attempt.startedAt,
    finishedAt: event.at,
  });
}

function updateIncumbent(
  draft: IterationDraft,
  event: EventOf<'iteration_finished'>,
  chosen: EvaluationRecord[],
  commit: string | null,
): void {
  if (event.status !== 'baseline' && event.status !== 'keep') return;
  const eligible = chosen.every((e) => e.gateFailure === null);
  draft.incumbent = {
    iteration: event.iteration,
    promptSha256: event.promptSha256,
    train: event.train,
    holdout: event.holdout,
    eligible,
    commit: event.status === 'keep' ? commit : null,
  };
  if (event.status === 'baseline') {
    draft.baseline = {
      iteration: event.iteration,
      train: event.train,
      holdout: event.holdout,
      promptSha256: event.promptSha256,
    };
    draft.pendingRebaseline = false;
  }
}

function recordIteration(draft: IterationDraft, record: IterationRecord): void {
  draft.records.set(record.iteration, record);
}

function abandoned(attempt: OpenIteration, at: string): IterationRecord {
  return {
    iteration: attempt.iteration,
    status: 'interrupted',
    strategy: attempt.strategy,
    candidate: null,
    train: null,
    holdout: null,
    incumbentBefore: null,
    delta: null,
    paired: null,
    screen: null,
    best: null,
    signals: { checks: null, judge: null, expectations: null },
    gateFailure: null,
    hypothesis: null,
    promptSha256: null,
    commit: null,
    costUsd: 0,
    seconds: 0,
    errorKind: null,
    message: 'left unfinished',
    attempts: attempt.attempts,
    startedAt: attempt.startedAt,
    finishedAt: at,
  };
}

export function updateAttempt(
  draft: IterationDraft,
  iteration: number,
  change: (attempt: OpenIteration) => void,
): void {
  let attempt = draft.attempts.get(iteration);
  if (!attempt) {
    // Data for an iteration that was never started is kept (it may still finish) but never counts as open.
    attempt = emptyAttempt(iteration);
    draft.attempts.set(iteration, attempt);
  }
  change(attempt);
}

function emptyAttempt(iteration: number): OpenIteration {
  return {
    iteration,
    strategy: 'focused',
    startedAt: '',
    attempts: 0,
    phase: null,
    retesting: false,
    candidate: null,
    progress: null,
    proposals: [],
    evaluations: [],
    commit: null,
  };
}

export function toEvaluation(event: EventOf<'candidate_evaluated'>): EvaluationRecord {
  const { train, holdout, all } = event.scores;
  return {
    candidate: event.candidate,
    repeat: event.repeat ?? null,
    train: train.total,
    holdout: holdout.total,
    all: all.total,
    signals: { checks: train.checks, judge: train.judge, expectations: train.expectations },
    gateFailure: event.gateFailure,
    criteria: event.criteria,
    costUsd: event.costUsd,
    ...(event.judgeAlpha === undefined ? {} : { judgeAlpha: event.judgeAlpha }),
  };
}

/** The decided candidate's panel agreement, averaged over its evaluations; nothing without a panel. */
function judgeAlphaOf(evaluations: readonly EvaluationRecord[]): { judgeAlpha?: number | null } {
  const panelled = evaluations.filter((e) => e.judgeAlpha !== undefined);
  return panelled.length === 0 ? {} : { judgeAlpha: mean(panelled.map((e) => e.judgeAlpha ?? null)) };
}

function averageSignals(evaluations: readonly EvaluationRecord[]): Signals {
  return {
    checks: mean(evaluations.map((e) => e.signals.checks)),
    judge: mean(evaluations.map((e) => e.signals.judge)),
    expectations: mean(evaluations.map((e) => e.signals.expectations)),
  };
}

function mean(values: readonly (number | null)[]): number | null {
  const present = values.filter((v): v is number => v !== null);
  if (present.length === 0) return null;
  return present.reduce((sum, v) => sum + v, 0) / present.length;
}
