/**
 * The cases the loop may evaluate: train and holdout. Sealed test cases (SPEC 13) are scored
 * only by the final evaluation and `eval --split test`.
 */
import type { Case, Experiment } from './types.js';

export function loopCases(experiment: Pick<Experiment, 'cases'>): readonly Case[] {
  return experiment.cases.filter((c) => (c.split as string) !== 'test');
}
