/**
 * A test-only hook for the crash tests: with AUTORESEARCH_TEST_KILL_AT="<point>:<n>" the
 * process SIGKILLs itself the n-th time it reaches that point (1-based), so a test can crash
 * a real run at any phase without timed sleeps. Without the variable it does nothing.
 *
 * Most points are moments of the journal, so they ride on the recorder (JOURNAL_POINTS): just
 * before an event is appended, just after it is (derived files not yet written), or once the
 * derived files (results.tsv) follow it. Two moments journal nothing and are reached by name
 * from the loop: `proposed` (the proposals journaled, none evaluated yet) and `generated`
 * (after each finished generation).
 *
 * Points, in run order: started, baseline, iteration_started, parent_chosen (pareto), mutating,
 * proposed, generating, generated, checking, judging, grading, scoring, evaluated
 * (batch_submitted under --batch), finished, recorded, decided, pooled (pareto), committing,
 * committed, final, final_done.
 */
import type { RunEvent } from '../run/events.js';
import type { RunState } from '../run/run-state.js';
import { isNonImproving } from '../run/streaks.js';

/** Where in an append the recorder is: before it, after it, after its derived files. */
export type JournalMoment = 'appending' | 'appended' | 'derived';

export interface KillPoint {
  /** A named moment that journals nothing (the loop's `checkpoint` dependency). */
  reach(point: string): void;
  /** Called by the recorder for every event it journals, at each moment. */
  atJournal(moment: JournalMoment, event: RunEvent, state: RunState): void;
}

interface JournalPoint {
  moment: JournalMoment;
  matches(event: RunEvent, state: RunState): boolean;
}

const phase =
  (name: string) =>
  (event: RunEvent): boolean =>
    event.type === 'phase' && event.phase === name;

/** An iteration's own end, not the marker resume leaves on one a crash cut short. */
const finishes = (event: RunEvent): boolean =>
  event.type === 'iteration_finished' && event.status !== 'interrupted';

export const JOURNAL_POINTS: Readonly<Record<string, JournalPoint>> = {
  /** manifest.json written, the start not journaled. */
  started: { moment: 'appending', matches: (event) => event.type === 'run_started' },
  baseline: { moment: 'appended', matches: phase('baseline') },
  /** An iteration after the baseline (the baseline's start is followed by its `baseline` phase). */
  iteration_started: {
    moment: 'appended',
    matches: (event, state) =>
      event.type === 'iteration_started' && state.baseline !== null && !state.pendingRebaseline,
  },
  /**
   * Pareto (docs/design/pareto-search.md): the iteration's parent choices journaled, the mutator
   * not asked yet.
   */
  parent_chosen: { moment: 'appended', matches: (event) => event.type === 'parent_chosen' },
  mutating: { moment: 'appended', matches: phase('mutating') },
  generating: { moment: 'appended', matches: phase('generating') },
  checking: { moment: 'appended', matches: phase('checking') },
  judging: { moment: 'appended', matches: phase('judging') },
  grading: { moment: 'appended', matches: phase('grading') },
  scoring: { moment: 'appended', matches: phase('scoring') },
  /**
   * A batch created and journaled (docs/design/cost-engine.md), its answers not yet in: resume must
   * poll it.
   */
  batch_submitted: { moment: 'appended', matches: (event) => event.type === 'batch_submitted' },
  /** Paired acceptance: a first look asked for more samples; both sides' retests not yet run. */
  retesting: { moment: 'appended', matches: phase('retesting') },
  /** Every candidate evaluated, the decision not yet journaled. */
  evaluated: { moment: 'appended', matches: phase('deciding') },
  /** The iteration journaled, results.tsv not yet rewritten. */
  finished: { moment: 'appended', matches: finishes },
  recorded: {
    moment: 'derived',
    matches: (event) => finishes(event) || event.type === 'commit',
  },
  /** A decision journaled and results.tsv written; a keep's commit still to come. */
  decided: {
    moment: 'derived',
    matches: (event) =>
      event.type === 'iteration_finished' && (event.status === 'keep' || isNonImproving(event.status)),
  },
  /** Pareto: an iteration whose members entered the pool without moving the best, results.tsv written. */
  pooled: {
    moment: 'derived',
    matches: (event) => event.type === 'iteration_finished' && event.status === 'pooled',
  },
  committing: { moment: 'appended', matches: phase('committing') },
  /** The git commit made, its `commit` event not yet journaled. */
  committed: { moment: 'appending', matches: (event) => event.type === 'commit' },
  final: { moment: 'appended', matches: phase('final') },
  /** The final check journaled, the stop not. */
  final_done: { moment: 'appended', matches: (event) => event.type === 'final_evaluation' },
};

export function createKillPoint(spec: string | undefined, kill: () => void): KillPoint | undefined {
  if (spec === undefined || spec === '') return undefined;
  const match = /^([a-z_.-]+):(\d+)$/.exec(spec);
  if (!match) throw new Error(`AUTORESEARCH_TEST_KILL_AT must look like "point:n", got "${spec}"`);
  const target = match[1] as string;
  let remaining = Number(match[2]);
  const reached = () => {
    remaining -= 1;
    if (remaining === 0) kill();
  };
  const onJournal = JOURNAL_POINTS[target];
  return {
    reach(point) {
      // A point that rides on the journal is counted there only, never twice.
      if (point === target && onJournal === undefined) reached();
    },
    atJournal(moment, event, state) {
      if (onJournal?.moment === moment && onJournal.matches(event, state)) reached();
    },
  };
}

/** The kill point a run process takes from its environment: SIGKILL itself, nothing else. */
export function killPointFromEnv(env: NodeJS.ProcessEnv): KillPoint | undefined {
  return createKillPoint(env['AUTORESEARCH_TEST_KILL_AT'], () => process.kill(process.pid, 'SIGKILL'));
}
