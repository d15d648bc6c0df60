/**
 * The `watch` loop: re-read the journal whenever the watcher reports a change (and now and
 * then regardless, in case a notification is lost), fold it, and hand the view new text —
 * a redrawn frame on a TTY, new lines otherwise. It ends when the journal says the run
 * stopped. The file watcher, the clock and the output are passed in, so tests drive it
 * with fakes.
 */
import type { RunEvent } from '../run/events.js';
import { reduceRun } from '../run/reducer.js';
import type { Colors } from '../ui/terminal.js';
import { describeEvents, renderWatchFrame } from '../ui/watch-view.js';

export interface WatchClock {
  now(): Date;
  /** Calls `tick` every `ms` until the returned function is called. */
  every(ms: number, tick: () => void): () => void;
  /** Calls `fire` once after `ms` unless the returned function is called first. */
  after(ms: number, fire: () => void): () => void;
}

export interface WatchOutput {
  tty: boolean;
  width(): number;
  colors: Colors;
  write(text: string): void;
  /** Takes back the last `lines` lines written (Terminal.rewind). */
  rewind(lines: number): void;
}

export interface WatchSessionDeps {
  /** The journal's events, or null while it does not exist. */
  readEvents(): Promise<RunEvent[] | null>;
  /** Starts watching the journal; `onChange` may be called any number of times. */
  watch(onChange: () => void): { close(): Promise<void> | void };
  clock: WatchClock;
  output: WatchOutput;
}

export interface WatchSession {
  /** Resolves when the run has stopped (after the last output is written). */
  done: Promise<void>;
  /** Leave early (Ctrl-C). */
  close(): Promise<void>;
}

const REDRAW_MS = 1000;
const POLL_MS = 5000;
// chokidar emits at most one change per file every 50 ms and drops the rest, so each
// notification is followed by one more read once that window has passed.
const SETTLE_MS = 120;

export function startWatchSession(runId: string, deps: WatchSessionDeps): WatchSession {
  const { output, clock } = deps;
  let events: RunEvent[] | null = null;
  let shown = 0;
  let drawnLines = 0;
  let announcedWait = false;
  let reading: Promise<void> | null = null;
  let again = false;
  let finished = false;
  const lastPhase = new Map<number, string>();
  let resolveDone: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    resolveDone = resolve;
  });

  const draw = () => {
    const state = events === null ? null : reduceRun(events);
    const frame = renderWatchFrame(runId, state, clock.now(), {
      width: output.width(),
      colors: output.colors,
    });
    // The previous frame is taken back, the new one drawn in its place.
    if (drawnLines > 0) output.rewind(drawnLines);
    output.write(frame);
    drawnLines = frame.split('\n').length;
  };

  const report = () => {
    if (output.tty) {
      draw();
      return;
    }
    if (events === null) {
      if (!announcedWait) output.write(`waiting for run ${runId} to write its journal…`);
      announcedWait = true;
      return;
    }
    const fresh = events.slice(shown);
    const lines = describeEvents(fresh, reduceRun(events), {
      width: output.width(),
      colors: output.colors,
      history: shown === 0 && announcedWait === false,
      lastPhase,
    });
    shown = events.length;
    if (lines.length > 0) output.write(lines.join('\n'));
  };

  const read = async () => {
    const next = await deps.readEvents();
    if (finished) return;
    if (next !== null && events !== null && next.length === events.length) return;
    if (next === null && events === null && announcedWait) return;
    events = next;
    report();
    if (events !== null && events.at(-1)?.type === 'run_stopped') finish();
  };

  const refresh = (): Promise<void> => {
    if (reading) {
      again = true;
      return reading;
    }
    reading = (async () => {
      do {
        again = false;
        await read();
      } while (again && !finished);
    })().finally(() => {
      reading = null;
    });
    return reading;
  };

  let cancelSettle: () => void = () => {};
  const watcher = deps.watch(() => {
    void refresh();
    cancelSettle();
    cancelSettle = clock.after(SETTLE_MS, () => void refresh());
  });
  const stopPolling = clock.every(POLL_MS, () => void refresh());
  const stopRedraw = output.tty
    ? clock.every(REDRAW_MS, () => !finished && events !== null && draw())
    : () => {};

  let closing: Promise<void> | null = null;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      finished = true;
      stopPolling();
      stopRedraw();
      cancelSettle();
      await watcher.close();
      resolveDone();
    })();
    return closing;
  };
  const finish = () => {
    finished = true;
    void close();
  };

  if (!output.tty) output.write(`watching run ${runId}`);
  void refresh();
  return { done, close };
}
