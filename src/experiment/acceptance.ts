/**
 * Which acceptance rule an experiment asks for (docs/design/paired-acceptance.md).
 * `search.acceptance` when written; otherwise read from `min_improvement` as version 1 wrote it:
 * `auto` (the default) means paired statistics, a number means version 1's margin rule with that
 * margin.
 */
import type { Acceptance, Search, SearchName } from './schema.js';

export function acceptanceOf(search: Pick<Search, 'acceptance' | 'min_improvement'>): Acceptance {
  if (search.acceptance !== undefined) return search.acceptance;
  return search.min_improvement === 'auto' ? 'paired' : 'margin';
}

/**
 * The baseline's evaluations: under `margin` with `auto` its repeats measure the noise margin;
 * paired statistics measure noise per decision, so one evaluation is enough.
 */
export function baselineRepeats(
  search: Pick<Search, 'min_improvement' | 'noise_repeats'>,
  acceptance: Acceptance,
): number {
  return acceptance === 'margin' && search.min_improvement === 'auto' ? search.noise_repeats : 1;
}

/**
 * docs/design/paired-acceptance.md: proposals are screened on min(8, train cases) unless
 * `search.minibatch` says otherwise.
 */
export const DEFAULT_MINIBATCH = 8;

/** The minibatch a proposal is screened on; screening is on only when it is smaller than the train cases. */
export function minibatchSize(search: Pick<Search, 'minibatch'>, trainCases: number): number {
  return Math.min(search.minibatch ?? DEFAULT_MINIBATCH, trainCases);
}

/**
 * The search strategy an experiment asks for (docs/design/pareto-search.md): `search.strategy` when
 * written, otherwise pareto under paired acceptance and greedy under margin (a pool's admission
 * rule is the paired one; validate refuses `strategy: pareto` with `acceptance: margin`).
 */
export function searchStrategyOf(
  search: Pick<Search, 'strategy' | 'acceptance' | 'min_improvement'>,
): SearchName {
  if (search.strategy !== undefined) return search.strategy;
  return acceptanceOf(search) === 'paired' ? 'pareto' : 'greedy';
}
