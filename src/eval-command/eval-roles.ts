/**
 * The roles an evaluation calls: the mutator is never used by `eval`. Missing keys are checked
 * for these roles only (experiment/missing-keys.ts).
 */
import { keyVariables as keyVariablesOf } from '../experiment/overrides.js';
import type { Experiment } from '../experiment/types.js';

export const EVAL_ROLES = ['generator', 'judge', 'grader'] as const;

/** The key variables the eval roles read, for messages about rejected keys or exhausted credit. */
export function keyVariables(experiment: Experiment): string[] {
  return keyVariablesOf(experiment, EVAL_ROLES);
}
