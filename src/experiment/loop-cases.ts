/**
 * Which cases the loop may evaluate (docs/design/paired-acceptance.md). The sealed test cases are
 * never evaluated during the loop, never shown to the mutator and used by no decision: the loop
 * works on `loopCases` alone, and only the final evaluation (and `eval --split test`) adds
 * `testCases`.
 */
import type { Case, Experiment } from './types.js';

export function loopCases(experiment: Pick<Experiment, 'cases'>): Case[] {
  return experiment.cases.filter((c) => c.split !== 'test');
}

export function testCases(experiment: Pick<Experiment, 'cases'>): Case[] {
  return experiment.cases.filter((c) => c.split === 'test');
}
