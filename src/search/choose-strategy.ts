/**
 * The search a run uses, as a strategy the loop is handed (LoopDeps.strategy): the experiment's
 * `search.strategy`, except that a run started under an older record version keeps the greedy
 * search to its end (src/loop/loop-state.ts searchFor).
 */
import type { LoopDeps } from '../loop/loop-deps.js';
import { searchFor } from '../loop/loop-state.js';
import { greedySearch } from './greedy.js';
import { paretoSearch } from './pareto.js';
import type { SearchStrategy } from './strategy.js';

export function strategyFor(deps: Pick<LoopDeps, 'experiment' | 'recorder'>): SearchStrategy {
  return searchFor(deps) === 'pareto' ? paretoSearch : greedySearch;
}
