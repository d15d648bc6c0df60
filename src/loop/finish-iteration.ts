/**
 * The end of an iteration, built in one place: its `iteration_finished` event (every field the
 * ending stage does not know is null) journaled with the spend events it paid for, whose sum
 * is its cost.
 */
import type { IterationStatus, RunEventBody } from '../run/events.js';
import type { RunRecorder } from './run-recorder.js';

type Finished = Extract<RunEventBody, { type: 'iteration_finished' }>;
type Spend = Extract<RunEventBody, { type: 'spend' }>;

export type IterationEnd = Partial<
  Omit<Finished, 'type' | 'iteration' | 'status' | 'costUsd' | 'seconds'>
> & {
  iteration: number;
  status: IterationStatus;
  /** The iteration's spend events (the ledger's growth while it ran). */
  spend: readonly RunEventBody[];
  seconds: number;
};

export function iterationFinished(end: IterationEnd): Finished {
  const { spend, ...fields } = end;
  return {
    candidate: null,
    train: null,
    holdout: null,
    incumbentBefore: null,
    delta: null,
    hypothesis: null,
    promptSha256: null,
    ...fields,
    type: 'iteration_finished',
    costUsd: spend.reduce((sum, e) => sum + (e.type === 'spend' ? (e as Spend).usd : 0), 0),
    seconds: Math.max(0, end.seconds),
  };
}

/** Journals the spend, then the end, in one append (`before`: events that belong ahead of both). */
export async function finishIteration(
  recorder: RunRecorder,
  end: IterationEnd,
  before: readonly RunEventBody[] = [],
): Promise<void> {
  await recorder.emit(...before, ...end.spend, iterationFinished(end));
}
