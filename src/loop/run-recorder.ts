/**
 * The loop's only way to record anything: stamps events, appends them to the journal (fsynced
 * before the step counts as done; phase markers ride along with the next fsync), keeps the
 * folded state, and tells listeners what happened. Everything derived from the journal is a
 * listener: results.tsv (built in: every run has one), the terminal renderer and the report
 * refresher (attached by the session). The engine itself never prints.
 */
import { appendEvents } from '../run/journal.js';
import { type RunEvent, type RunEventBody, stampEvent } from '../run/events.js';
import { RECORD_VERSION } from '../run/record-version.js';
import { writeResultsTsv } from '../run/records.js';
import { createRunFold } from '../run/run-fold.js';
import type { RunState } from '../run/run-state.js';
import type { KillPoint } from './kill-point.js';
import { createTriedPrompts } from './loop-state.js';

const PROGRESS_MARKERS: ReadonlySet<RunEvent['type']> = new Set(['iteration_started', 'phase']);

/**
 * results.tsv is rewritten after each event that changes a row, and at the stop: a resume that
 * only stops (its budget already spent) still repairs a file a crash left behind.
 */
const RESULTS_EVENTS: ReadonlySet<RunEvent['type']> = new Set([
  'iteration_finished',
  'commit',
  'run_stopped',
]);

/**
 * Called once per journaled event with the state after it. A listener that returns a promise
 * holds the next append until it settles, so derived files follow the journal in order.
 */
export type EventListener = (event: RunEvent, state: RunState) => void | Promise<void>;

export interface RecorderOptions {
  /** The run's record version (manifest.json); a resumed run keeps the one it started with. */
  version?: number;
  /** Test-only: the crash tests' kill points (see kill-point.ts). */
  killPoint?: KillPoint;
}

export interface RunRecorder {
  readonly runDir: string;
  /** The record version this run is written under (see record-version.ts). */
  readonly version: number;
  emit(...bodies: RunEventBody[]): Promise<void>;
  state(): RunState;
  /** The prompts tried so far plus the incumbent, by hash (see createTriedPrompts). */
  triedPrompts(incumbentPrompt: string): Set<string>;
  onEvent(listener: EventListener): void;
}

export function createRunRecorder(
  runDir: string,
  initial: readonly RunEvent[],
  now: () => Date,
  options: RecorderOptions = {},
): RunRecorder {
  const version = options.version ?? RECORD_VERSION;
  const { killPoint } = options;
  // Folded one event at a time: re-folding the whole journal on every emit is quadratic over a
  // long run. The events themselves are not kept: the journal on disk is their record, and a
  // run's memory must not grow with its length (BENCHMARKS.md, benchmark 5).
  const fold = createRunFold();
  const tried = createTriedPrompts();
  for (const event of initial) {
    fold.apply(event);
    tried.apply(event);
  }
  const listeners: EventListener[] = [
    async (event, state) => {
      if (RESULTS_EVENTS.has(event.type)) await writeResultsTsv(runDir, state);
    },
  ];
  // Appends are serialised: concurrent stages emit phases, and the journal must stay whole lines in order.
  let queue: Promise<void> = Promise.resolve();
  let failure: unknown;
  const write = async (bodies: RunEventBody[]) => {
    if (failure !== undefined) throw failure;
    const stamped = bodies.map((body) => stampEvent(body, now(), version) as RunEvent);
    for (const event of stamped) killPoint?.atJournal('appending', event, fold.state());
    try {
      // Markers of where the loop is (an iteration or a phase beginning) record no finished
      // work: they need not wait for the disk, and the next fsync carries them too.
      await appendEvents(runDir, stamped, {
        durable: stamped.some((event) => !PROGRESS_MARKERS.has(event.type)),
      });
    } catch (error) {
      failure = error;
      throw error;
    }
    for (const event of stamped) {
      fold.apply(event);
      tried.apply(event);
    }
    const state = fold.state();
    for (const event of stamped) killPoint?.atJournal('appended', event, state);
    const failures = await notify(listeners, stamped, state);
    for (const event of stamped) killPoint?.atJournal('derived', event, state);
    // The events are journaled and folded whatever a listener did, and later emits go on; the
    // caller still hears of the failure (a derived file it could not write).
    if (failures.length > 0) throw failures[0];
  };
  return {
    runDir,
    version,
    emit(...bodies) {
      const next = queue.then(() => write(bodies));
      queue = next.catch(() => undefined);
      return next;
    },
    state: () => fold.state(),
    triedPrompts: (incumbentPrompt) => tried.with(incumbentPrompt),
    onEvent(listener) {
      listeners.push(listener);
    },
  };
}

/** Every listener hears every event, whatever another one did; their failures are returned. */
async function notify(
  listeners: readonly EventListener[],
  events: readonly RunEvent[],
  state: RunState,
): Promise<unknown[]> {
  const failures: unknown[] = [];
  for (const event of events) {
    for (const listener of listeners) {
      try {
        await listener(event, state);
      } catch (error) {
        failures.push(error);
      }
    }
  }
  return failures;
}
