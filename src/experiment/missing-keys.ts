/**
 * The one missing-API-key rule: which key variables the models of some roles need and the
 * environment lacks (unset or blank), and the one sentence that says so. Loading reports them
 * as warnings (resolve-models.ts); `run`, `resume`, `eval`, `calibrate` and `validate --ping`
 * refuse before any folder is made or any money spent, each passing the roles it calls
 * (`eval` never calls the mutator, `calibrate` only the judge and the grader).
 */
import { agentKindOf } from '../agent/agent-target.js';
import { agentCredentialProblem, agentKeyName, agentUpstream } from '../agent/cli/agent-credential.js';
import { AutoresearchError } from '../errors.js';
import { apiKeyEnvName, keyIsRequired, readApiKey } from '../providers/env.js';
import { type RoleModel, roleModels } from './judge-panel.js';
import { ROLES, type Role } from './roles.js';
import type { ModelEntry } from './schema.js';
import type { ResolvedModels } from './types.js';

/**
 * The variable this entry's calls need and cannot find, or undefined when nothing is missing.
 * `asAgent`: the entry runs an agent experiment's cases, where Claude Code and Codex use no login
 * of their own but the key the runner's proxy adds (docs/design/agent-runs.md).
 */
export function missingKeyOf(entry: ModelEntry, env: NodeJS.ProcessEnv, asAgent = false): string | undefined {
  const agent = asAgent ? agentKindOf(entry.provider) : undefined;
  if (agent === 'claude' || agent === 'codex')
    return agentUpstream(agent, env) === undefined ? agentKeyName(agent) : undefined;
  if (!keyIsRequired(entry, env) || readApiKey(entry, env) !== undefined) return undefined;
  return apiKeyEnvName(entry);
}

/** Variable name → the models (panel members one by one) of these roles that need it. */
export function findMissingKeyModels<R extends Role>(
  models: Partial<ResolvedModels>,
  env: NodeJS.ProcessEnv,
  roles: readonly R[],
  /** An agent experiment: its generator runs the agent cases. */
  agent = false,
): Map<string, RoleModel<R>[]> {
  const missing = new Map<string, RoleModel<R>[]>();
  for (const model of roleModels(models, roles)) {
    const name = missingKeyOf(model.entry, env, agent && model.role === 'generator');
    if (name !== undefined) missing.set(name, [...(missing.get(name) ?? []), model]);
  }
  return missing;
}

/** Variable name → the roles, in role order, whose calls need it. */
export function findMissingKeys<R extends Role = Role>(
  experiment: { models: Partial<ResolvedModels>; agent?: unknown },
  env: NodeJS.ProcessEnv,
  roles: readonly R[] = ROLES as readonly Role[] as readonly R[],
): Map<string, R[]> {
  const byName = findMissingKeyModels(experiment.models, env, roles, experiment.agent !== undefined);
  return new Map([...byName].map(([name, models]) => [name, [...new Set(models.map((m) => m.role))]]));
}

/** `ANTHROPIC_API_KEY is not set (needed by generator, judge)`. */
export function describeMissingKey(name: string, roles: readonly string[]): string {
  return `${name} is not set (needed by ${roles.join(', ')})`;
}

export function missingKeyHint(name: string, forAgent?: RoleModel<Role>): string {
  const base = `export ${name}=… in this shell (keys are read from the environment only), or try it offline with --provider sim`;
  const agent = forAgent === undefined ? undefined : agentKindOf(forAgent.entry.provider);
  // An agent's CLI login is refused, and why (agent-credential.ts).
  if (agent !== 'claude' && agent !== 'codex') return base;
  return `${base}. ${agentCredentialProblem({}, agent)}`;
}

/** The generator behind a missing key, when it is an agent experiment's (its hint says which logins work). */
export function agentNeeder<R extends Role>(
  needers: readonly RoleModel<R>[],
  agent: boolean,
): RoleModel<R> | undefined {
  return agent ? needers.find((m) => m.role === 'generator') : undefined;
}

/** Refuses (exit 2) when a model of these roles needs a key the environment lacks. */
export function refuseMissingKeys(
  experiment: { models: Partial<ResolvedModels>; agent?: unknown },
  env: NodeJS.ProcessEnv,
  roles: readonly Role[] = ROLES,
): void {
  const agent = experiment.agent !== undefined;
  const missing = [...findMissingKeyModels(experiment.models, env, roles, agent)];
  const first = missing[0];
  if (first === undefined) return;
  const message = missing
    .map(([name, needing]) => describeMissingKey(name, [...new Set(needing.map((m) => m.role))]))
    .join('; ');
  throw new AutoresearchError('E_MISSING_KEY', message, {
    hint: missingKeyHint(first[0], agentNeeder(first[1], agent)),
  });
}
