/**
 * The one missing-API-key rule: which key variables the models of some roles need and the
 * environment lacks (unset or blank), and the one sentence that says so. Loading reports them
 * as warnings (resolve-models.ts); `run`, `resume`, `eval`, `calibrate` and `validate --ping`
 * refuse before any folder is made or any money spent, each passing the roles it calls
 * (`eval` never calls the mutator, `calibrate` only the judge and the grader).
 */
import { AutoresearchError } from '../errors.js';
import { apiKeyEnvName, keyIsRequired, readApiKey } from '../providers/env.js';
import { type RoleModel, roleModels } from './judge-panel.js';
import { ROLES, type Role } from './roles.js';
import type { ModelEntry } from './schema.js';
import type { ResolvedModels } from './types.js';

/** The variable this entry's calls need and cannot find, or undefined when nothing is missing. */
export function missingKeyOf(entry: ModelEntry, env: NodeJS.ProcessEnv): string | undefined {
  if (!keyIsRequired(entry, env) || readApiKey(entry, env) !== undefined) return undefined;
  return apiKeyEnvName(entry);
}

/** Variable name → the models (panel members one by one) of these roles that need it. */
export function findMissingKeyModels<R extends Role>(
  models: Partial<ResolvedModels>,
  env: NodeJS.ProcessEnv,
  roles: readonly R[],
): Map<string, RoleModel<R>[]> {
  const missing = new Map<string, RoleModel<R>[]>();
  for (const model of roleModels(models, roles)) {
    const name = missingKeyOf(model.entry, env);
    if (name !== undefined) missing.set(name, [...(missing.get(name) ?? []), model]);
  }
  return missing;
}

/** Variable name → the roles, in role order, whose calls need it. */
export function findMissingKeys<R extends Role = Role>(
  experiment: { models: Partial<ResolvedModels> },
  env: NodeJS.ProcessEnv,
  roles: readonly R[] = ROLES as readonly Role[] as readonly R[],
): Map<string, R[]> {
  const byName = findMissingKeyModels(experiment.models, env, roles);
  return new Map([...byName].map(([name, models]) => [name, [...new Set(models.map((m) => m.role))]]));
}

/** `ANTHROPIC_API_KEY is not set (needed by generator, judge)`. */
export function describeMissingKey(name: string, roles: readonly string[]): string {
  return `${name} is not set (needed by ${roles.join(', ')})`;
}

export function missingKeyHint(name: string): string {
  return `export ${name}=… in this shell (keys are read from the environment only), or try it offline with --provider sim`;
}

/** Refuses (exit 2) when a model of these roles needs a key the environment lacks. */
export function refuseMissingKeys(
  experiment: { models: Partial<ResolvedModels> },
  env: NodeJS.ProcessEnv,
  roles: readonly Role[] = ROLES,
): void {
  const missing = [...findMissingKeys(experiment, env, roles)];
  const first = missing[0];
  if (first === undefined) return;
  const message = missing.map(([name, needing]) => describeMissingKey(name, needing)).join('; ');
  throw new AutoresearchError('E_MISSING_KEY', message, { hint: missingKeyHint(first[0]) });
}
