/**
 * Kill points named by the journal event they cut in an uninterrupted reference run: "the
 * 2nd `judging` phase of iteration 1" rather than "judging:7". The occurrence to put in
 * AUTORESEARCH_TEST_KILL_AT follows from where the process about to start begins (a resume
 * redoes the open iteration from its start), so a plan stays right however the chain got
 * there — and after the kill, the journal's last event says whether it landed there.
 *
 * Only points that ride on the journal after an append (src/loop/kill-point.ts
 * JOURNAL_POINTS, moment `appended` or `derived`) can be targets: their event is the last
 * one on disk when the process dies.
 */
import { JOURNAL_POINTS } from '../../../src/loop/kill-point.js';
import type { RunEvent } from '../../../src/run/events.js';
import { createRunFold } from '../../../src/run/reducer.js';

export interface JournalTarget {
  /** A point of JOURNAL_POINTS. */
  point: string;
  iteration: number;
  /** Which of the point's events within that iteration (1-based). */
  nth: number;
  /** What the kill cuts, for messages. */
  what: string;
}

export function formatTarget(target: JournalTarget): string {
  return `${target.point}#${target.nth}@${target.iteration} (${target.what})`;
}

export function iterationOf(event: RunEvent): number | undefined {
  return 'iteration' in event && typeof event.iteration === 'number' ? event.iteration : undefined;
}

function journalPoint(point: string) {
  const spec = JOURNAL_POINTS[point];
  if (spec === undefined || spec.moment === 'appending') {
    throw new Error(`${point} is not a point reached after a journal append`);
  }
  return spec;
}

/** For each event, whether `point` fires on it (the state folded as the recorder has it then). */
function firesOn(events: readonly RunEvent[], point: string): boolean[] {
  const spec = journalPoint(point);
  const fold = createRunFold();
  return events.map((event) => {
    fold.apply(event);
    return spec.matches(event, fold.state());
  });
}

/** Index in `events` of the target's event; undefined when the run never reached it. */
export function targetIndex(events: readonly RunEvent[], target: JournalTarget): number | undefined {
  const fires = firesOn(events, target.point);
  let seen = 0;
  for (const [index, event] of events.entries()) {
    if (fires[index] && iterationOf(event) === target.iteration && ++seen === target.nth) return index;
  }
  return undefined;
}

/**
 * The occurrence for AUTORESEARCH_TEST_KILL_AT that cuts the target in a process starting at
 * iteration `from` (0 for a fresh run, else the resumed state's `nextIteration`): how often
 * the point fires in the reference from that iteration up to the target's event.
 */
export function occurrenceFrom(reference: readonly RunEvent[], target: JournalTarget, from: number): number {
  const end = targetIndex(reference, target);
  if (end === undefined) throw new Error(`the reference never reaches ${formatTarget(target)}`);
  if (target.iteration < from) {
    throw new Error(`${formatTarget(target)} lies before iteration ${from}, where this process starts`);
  }
  const fires = firesOn(reference, target.point);
  let count = 0;
  for (let index = 0; index <= end; index++) {
    const iteration = iterationOf(reference[index] as RunEvent);
    if (fires[index] && iteration !== undefined && iteration >= from) count++;
  }
  return count;
}

/**
 * Why the journal of a run just killed at `target` does not end at it (undefined when it
 * does): its last event must be the target's, and the nth of its kind in that iteration
 * since the killed process started.
 */
export function missedTarget(events: readonly RunEvent[], target: JournalTarget): string | undefined {
  const start = events.findLastIndex((e) => e.type === 'run_started' || e.type === 'run_resumed');
  const fires = firesOn(events, target.point);
  const last = events.length - 1;
  const lastEvent = events[last];
  if (lastEvent === undefined || !fires[last] || iterationOf(lastEvent) !== target.iteration) {
    return `the journal ends with ${JSON.stringify(lastEvent)?.slice(0, 200)}`;
  }
  let seen = 0;
  for (let index = start; index <= last; index++) {
    if (fires[index] && iterationOf(events[index] as RunEvent) === target.iteration) seen++;
  }
  return seen === target.nth ? undefined : `the kill cut event ${seen} of its kind in that iteration`;
}
