/**
 * The weighted total (docs/design/scoring-and-decisions.md): signals that are absent are dropped
 * and the weights of the present ones renormalised. When every present signal has weight 0 they
 * count equally — the user weighted away everything that exists, and a score is still needed.
 */
import type { Weights } from '../experiment/schema.js';
import type { Signals } from './types.js';

const SIGNALS = ['checks', 'judge', 'expectations'] as const;

/** The total in 0..1, or null when no signal is present. */
export function combine(signals: Signals, weights: Weights): number | null {
  const present = SIGNALS.filter((name) => signals[name] !== undefined);
  if (present.length === 0) return null;
  const totalWeight = present.reduce((sum, name) => sum + weights[name], 0);
  return present.reduce((sum, name) => {
    const share = totalWeight > 0 ? weights[name] / totalWeight : 1 / present.length;
    return sum + share * (signals[name] ?? 0);
  }, 0);
}
