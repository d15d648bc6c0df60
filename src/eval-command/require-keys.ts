/**
 * `eval` refuses to start when a model it will call needs an API key the environment lacks
 * (docs/design/experiment-format.md), naming the variable — before any folder is made or any money
 * spent. Only the roles an evaluation calls count: the mutator is never used by `eval`.
 */
import { AutoresearchError } from '../errors.js';
import { roleModels } from '../experiment/judge-panel.js';
import { keyVariables as keyVariablesOf } from '../experiment/overrides.js';
import type { Experiment } from '../experiment/types.js';
import { apiKeyEnvName, keyIsRequired, readApiKey } from '../providers/env.js';

export const EVAL_ROLES = ['generator', 'judge', 'grader'] as const;
export type EvalRole = (typeof EVAL_ROLES)[number];

/** Variable name → the eval roles whose calls need it and cannot find it. */
export function findMissingKeys(
  experiment: Experiment,
  env: NodeJS.ProcessEnv,
  roles: readonly EvalRole[] = EVAL_ROLES,
): Map<string, EvalRole[]> {
  const missing = new Map<string, EvalRole[]>();
  for (const { role, entry } of roleModels(experiment.models, roles)) {
    if (!keyIsRequired(entry, env)) continue;
    const name = apiKeyEnvName(entry);
    if (name === undefined || readApiKey(entry, env) !== undefined) continue;
    const needing = missing.get(name) ?? [];
    if (!needing.includes(role)) missing.set(name, [...needing, role]);
  }
  return missing;
}

/** `roles`: the ones the command calls (`calibrate` calls only the judge and the grader). */
export function refuseMissingEvalKeys(
  experiment: Experiment,
  env: NodeJS.ProcessEnv,
  roles: readonly EvalRole[] = EVAL_ROLES,
): void {
  const missing = findMissingKeys(experiment, env, roles);
  if (missing.size === 0) return;
  const list = [...missing].map(([name, roles]) => `${name} (needed by ${roles.join(', ')})`).join(', ');
  const names = [...missing.keys()];
  throw new AutoresearchError(
    'E_MISSING_KEY',
    `${names.join(' and ')} ${names.length === 1 ? 'is' : 'are'} not set: ${list}`,
    {
      hint: `export ${names[0]}=… in this shell (keys come from the environment only), or try it offline with --provider sim`,
    },
  );
}

/** The key variables the eval roles read, for messages about rejected keys or exhausted credit. */
export function keyVariables(experiment: Experiment): string[] {
  return keyVariablesOf(experiment, EVAL_ROLES);
}
