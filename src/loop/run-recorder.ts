/**
 * The loop's only way to record anything: stamps events, appends them to the journal (fsynced
 * before the step counts as done; phase markers ride along with the next fsync), keeps the folded state, and tells listeners — the
 * terminal renderer, the report refresher — what happened. The engine itself never prints.
 */
import { appendEvents } from '../run/journal.js';
import { type RunEvent, type RunEventBody, stampEvent } from '../run/events.js';
import { createRunFold } from '../run/run-fold.js';
import type { RunState } from '../run/run-state.js';
import { createTriedPrompts } from './loop-state.js';

const PROGRESS_MARKERS: ReadonlySet<RunEvent['type']> = new Set(['iteration_started', 'phase']);

export type EventListener = (event: RunEvent, state: RunState) => void;

export interface RunRecorder {
  readonly runDir: string;
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
): RunRecorder {
  // Folded one event at a time: re-folding the whole journal on every emit is quadratic over a
  // long run. The events themselves are not kept: the journal on disk is their record, and a
  // run's memory must not grow with its length (BENCHMARKS.md, benchmark 5).
  const fold = createRunFold();
  const tried = createTriedPrompts();
  for (const event of initial) {
    fold.apply(event);
    tried.apply(event);
  }
  const listeners: EventListener[] = [];
  // Appends are serialised: concurrent stages emit phases, and the journal must stay whole lines in order.
  let queue: Promise<void> = Promise.resolve();
  let failure: unknown;
  const write = async (bodies: RunEventBody[]) => {
    if (failure !== undefined) throw failure;
    const stamped = bodies.map((body) => stampEvent(body, now()) as RunEvent);
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
    for (const event of stamped) for (const listener of listeners) listener(event, state);
  };
  return {
    runDir,
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
