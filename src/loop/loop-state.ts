/** Small readings of the run state the loop needs: margins, the attempt history, tried prompts. */
import type { RunEvent } from '../run/events.js';
import type { RunState } from '../run/run-state.js';
import type { AttemptSummary } from './build-feedback.js';
import { type Margin, MIN_AUTO_MARGIN } from './decide.js';
import { hashPrompt } from './prompt-hash.js';

export function currentMargin(state: RunState, minImprovement: number | 'auto'): Margin {
  if (minImprovement !== 'auto') return { train: minImprovement, holdout: minImprovement };
  if (!state.noise) return { train: MIN_AUTO_MARGIN, holdout: MIN_AUTO_MARGIN };
  return { train: state.noise.train, holdout: state.noise.holdout ?? MIN_AUTO_MARGIN };
}

export function historyOf(state: RunState): AttemptSummary[] {
  return state.iterations
    .filter((it) => it.status !== 'baseline' && it.status !== 'interrupted')
    .map((it) => ({
      iteration: it.iteration,
      status: it.status,
      trainScore: it.train,
      hypothesis: it.hypothesis ?? '',
    }));
}

/**
 * Every prompt already tried in the run (by hash), plus the incumbent: proposing one again is a
 * duplicate. Proposals of an attempt that never finished do not count: resume redoes that
 * iteration under the same number, and its (cached) proposal must not collide with itself.
 */
export function triedHashesOf(events: readonly RunEvent[], incumbentPrompt: string): Set<string> {
  const hashes = new Set<string>([hashPrompt(incumbentPrompt)]);
  const pending = new Map<number, string[]>();
  for (const event of events) {
    if (event.type === 'iteration_started') pending.set(event.iteration, []);
    if (event.type === 'proposal') pending.get(event.iteration)?.push(event.promptSha256);
    if (event.type !== 'iteration_finished') continue;
    if (event.status !== 'interrupted')
      for (const hash of pending.get(event.iteration) ?? []) hashes.add(hash);
    pending.delete(event.iteration);
    if (event.promptSha256) hashes.add(event.promptSha256);
  }
  return hashes;
}
