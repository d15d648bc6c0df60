/**
 * Validating that the score is computable: at least one signal (checks, judge, expectations)
 * exists and the signals that exist do not all weigh zero — missing signals are dropped and
 * the rest renormalised (docs/design/experiment-format.md), so zero over zero would leave nothing
 * to optimise.
 */
import type { Problem } from '../errors.js';
import type { KeyPath } from './key-path.js';
import type { Weights } from './schema.js';
import type { Position } from './yaml-source.js';

export type Signal = keyof Weights;

export function validateScoring(
  weights: Weights,
  present: Readonly<Record<Signal, boolean>>,
  where: { file: string; locate(path: KeyPath): Position },
): Problem[] {
  const signals = (Object.keys(present) as Signal[]).filter((s) => present[s]);
  const at = (path: KeyPath) => ({ file: where.file, ...where.locate(path) });
  if (signals.length === 0) {
    return [
      {
        severity: 'error',
        location: at([]),
        keyPath: '',
        message: 'nothing to score: the experiment has no checks, no rubric and no expectations',
        hint: 'add `checks:`, a `rubric:` or `expectations` on some cases',
      },
    ];
  }
  if ((Object.values(weights) as number[]).every((w) => w === 0)) {
    return [
      {
        severity: 'error',
        location: at(['scoring', 'weights']),
        keyPath: 'scoring.weights',
        message: 'every scoring weight is 0',
        hint: 'give at least one signal a positive weight',
      },
    ];
  }
  if (signals.every((s) => weights[s] === 0)) {
    return [
      {
        severity: 'error',
        location: at(['scoring', 'weights']),
        keyPath: 'scoring.weights',
        message: `the signals this experiment has (${signals.join(', ')}) all have weight 0`,
        hint: `give ${signals.join(' or ')} a positive weight`,
      },
    ];
  }
  return [];
}
