/**
 * What the run state folds away but a reviewer wants: every proposal and every candidate
 * evaluation of each iteration (not only the decided one). A redone iteration (after an
 * interruption) shows its latest attempt, as the run state does.
 */
import type { RunEvent } from '../run/events.js';

export interface CandidateScores {
  candidate: number;
  repeat: number | null;
  train: number | null;
  holdout: number | null;
  gateFailure: string | null;
  criteria: Record<string, number>;
  costUsd: number;
}

export interface ProposalSeen {
  candidate: number;
  hypothesis: string;
  duplicate: boolean;
}

export interface IterationEvents {
  proposals: ProposalSeen[];
  evaluations: CandidateScores[];
}

export function collectIterationEvents(events: readonly RunEvent[]): Map<number, IterationEvents> {
  const byIteration = new Map<number, IterationEvents>();
  const entry = (iteration: number): IterationEvents => {
    let found = byIteration.get(iteration);
    if (!found) {
      found = { proposals: [], evaluations: [] };
      byIteration.set(iteration, found);
    }
    return found;
  };
  for (const event of events) {
    if (event.type === 'iteration_started') {
      byIteration.set(event.iteration, { proposals: [], evaluations: [] });
    } else if (event.type === 'proposal') {
      entry(event.iteration).proposals.push({
        candidate: event.candidate,
        hypothesis: event.hypothesis,
        duplicate: event.duplicate,
      });
    } else if (event.type === 'candidate_evaluated') {
      entry(event.iteration).evaluations.push({
        candidate: event.candidate,
        repeat: event.repeat ?? null,
        train: event.scores.train.total,
        holdout: event.scores.holdout.total,
        gateFailure: event.gateFailure,
        criteria: event.criteria,
        costUsd: event.costUsd,
      });
    }
  }
  return byIteration;
}

/** Per criterion, the mean over the given evaluations (repeats of one candidate). */
export function meanCriteria(evaluations: readonly CandidateScores[]): Record<string, number> {
  const sums = new Map<string, { sum: number; n: number }>();
  for (const evaluation of evaluations) {
    for (const [key, value] of Object.entries(evaluation.criteria)) {
      const s = sums.get(key) ?? { sum: 0, n: 0 };
      s.sum += value;
      s.n += 1;
      sums.set(key, s);
    }
  }
  return Object.fromEntries([...sums].map(([key, { sum, n }]) => [key, sum / n]));
}
