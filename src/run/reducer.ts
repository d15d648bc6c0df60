/**
 * Run state as a pure fold over the journal: the same events always give the same state.
 * `runs`, `show`, `watch`, the report and `resume` all read a run this way, so what they
 * show is exactly what the journal says. The fold itself lives in run-fold.ts, where the
 * recorder also uses it one event at a time.
 */
import type { RunEvent } from './events.js';
import { createRunFold } from './run-fold.js';
import type { RunState } from './run-state.js';

export { activeSecondsAt, createRunFold, type RunFold } from './run-fold.js';

export function reduceRun(events: readonly RunEvent[]): RunState {
  const fold = createRunFold();
  for (const event of events) fold.apply(event);
  return fold.state();
}
