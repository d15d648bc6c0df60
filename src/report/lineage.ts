/**
 * Which prompt each iteration was compared with: its parent is the incumbent when it ran —
 * the latest baseline or keep before it. A baseline has no parent.
 */
import type { IterationStatus } from '../run/events.js';

export function findParents(
  iterations: readonly { iteration: number; status: IterationStatus }[],
): Map<number, number | null> {
  const parents = new Map<number, number | null>();
  let incumbent: number | null = null;
  for (const record of iterations) {
    parents.set(record.iteration, record.status === 'baseline' ? null : incumbent);
    if (record.status === 'baseline' || record.status === 'keep') incumbent = record.iteration;
  }
  return parents;
}
