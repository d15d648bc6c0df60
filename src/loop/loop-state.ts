/** Small readings of the run state the loop needs: margins, the attempt history, tried prompts. */
import { acceptanceOf, searchStrategyOf } from '../experiment/acceptance.js';
import type { Acceptance, SearchName } from '../experiment/schema.js';
import type { RunEvent } from '../run/events.js';
import type { LoopDeps } from './loop-deps.js';
import type { RunState } from '../run/run-state.js';
import type { AttemptSummary } from './build-feedback.js';
import type { Strategy } from './strategy.js';
import { type Margin, MIN_AUTO_MARGIN } from './decide.js';
import { hashPrompt } from '../prompt-hash.js';

export function currentMargin(state: RunState, minImprovement: number | 'auto'): Margin {
  if (minImprovement !== 'auto') return { train: minImprovement, holdout: minImprovement };
  if (!state.noise) return { train: MIN_AUTO_MARGIN, holdout: MIN_AUTO_MARGIN };
  return { train: state.noise.train, holdout: state.noise.holdout ?? MIN_AUTO_MARGIN };
}

/**
 * The acceptance rule of this run: the experiment's (docs/design/paired-acceptance.md), except that
 * a run started under record version 1 keeps version 1's margin rule to its end.
 */
export function acceptanceFor(deps: Pick<LoopDeps, 'experiment' | 'recorder'>): Acceptance {
  if (deps.recorder.version < 2) return 'margin';
  return acceptanceOf(deps.experiment.config.search);
}

/**
 * The search of this run (docs/design/pareto-search.md): the experiment's, except that a run
 * started under record version 4 or earlier keeps the greedy search to its end (its journal has no
 * pool).
 */
export function searchFor(deps: Pick<LoopDeps, 'experiment' | 'recorder'>): SearchName {
  if (deps.recorder.version < 5 || acceptanceFor(deps) !== 'paired') return 'greedy';
  return searchStrategyOf(deps.experiment.config.search);
}

/**
 * The mutation mode as `iteration_started` carries it: `mode` from record version 5 on,
 * `strategy` before (a run resumed under its own older version keeps writing what it began with).
 */
export function modeField(
  deps: Pick<LoopDeps, 'recorder'>,
  mode: Strategy,
): { mode: Strategy } | { strategy: Strategy } {
  return deps.recorder.version >= 5 ? { mode } : { strategy: mode };
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
 * Every prompt already tried in the run (by hash), kept up to date one event at a time so a
 * long run neither keeps its journal in memory nor rescans it every iteration. Proposals of an
 * attempt that never finished do not count: resume redoes that iteration under the same number,
 * and its (cached) proposal must not collide with itself.
 */
export interface TriedPrompts {
  apply(event: RunEvent): void;
  /** The tried prompts plus the incumbent: proposing any of them again is a duplicate. */
  with(incumbentPrompt: string): Set<string>;
}

export function createTriedPrompts(): TriedPrompts {
  const tried = new Set<string>();
  // Proposals of iterations that have started and not finished yet.
  const pending = new Map<number, string[]>();
  return {
    apply(event) {
      if (event.type === 'iteration_started') pending.set(event.iteration, []);
      if (event.type === 'proposal') pending.get(event.iteration)?.push(event.promptSha256);
      if (event.type !== 'iteration_finished') return;
      if (event.status !== 'interrupted')
        for (const hash of pending.get(event.iteration) ?? []) tried.add(hash);
      pending.delete(event.iteration);
      if (event.promptSha256) tried.add(event.promptSha256);
    },
    with(incumbentPrompt) {
      return new Set(tried).add(hashPrompt(incumbentPrompt));
    },
  };
}
