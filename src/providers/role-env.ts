/**
 * Which API keys each program the run starts may hold (docs/design/isolation.md): a model
 * provider's adapter — and so a `command` program or agent CLI it runs — gets the run's
 * environment without any model key but its own entry's (`api_key_env`, else its registry row's
 * variable, and for an agent CLI the variables it reads its login from); a program with no model
 * role (a check, `on_finish`) gets none. A generator program never holds the mutator's key.
 */
import { roleModels } from '../experiment/judge-panel.js';
import type { Role } from '../experiment/roles.js';
import type { JudgeConfig, ModelEntry } from '../experiment/schema.js';
import { apiKeyEnvName } from './env.js';
import { providerRecord } from './registry.js';

/** Keys removed whether or not an entry names them: the vendors' own variables. */
const ALWAYS_SECRET = ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY', 'ANTHROPIC_AUTH_TOKEN', 'CODEX_API_KEY'];

export type RoleModels = Partial<Record<Role, JudgeConfig | undefined>>;

/** Every variable holding a key of the experiment's models, and the vendors' own. */
export function secretKeyNames(models: RoleModels): Set<string> {
  const secret = new Set(ALWAYS_SECRET);
  for (const { entry } of roleModels(models)) {
    const name = apiKeyEnvName(entry);
    if (name) secret.add(name);
  }
  return secret;
}

/** The keys this entry's own calls need. */
export function ownKeyNames(entry: ModelEntry): string[] {
  const named = apiKeyEnvName(entry);
  return [...(named === undefined ? [] : [named]), ...(providerRecord(entry.provider).loginKeys ?? [])];
}

/** The environment without any model key (checks, `on_finish`). */
export function withoutKeys(env: NodeJS.ProcessEnv, models: RoleModels): NodeJS.ProcessEnv {
  const secret = secretKeyNames(models);
  return Object.fromEntries(Object.entries(env).filter(([name]) => !secret.has(name)));
}

/** The environment for this entry's adapter: no model key but its own. */
export function envForEntry(
  env: NodeJS.ProcessEnv,
  models: RoleModels,
  entry: ModelEntry,
): NodeJS.ProcessEnv {
  const own = new Set(ownKeyNames(entry));
  const secret = secretKeyNames(models);
  return Object.fromEntries(Object.entries(env).filter(([name]) => own.has(name) || !secret.has(name)));
}
