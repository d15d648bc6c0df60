/**
 * The environment for user programs (javascript-file and command checks): the runner's own,
 * minus every API key the experiment's models use, so a check script never holds a secret.
 */
import { apiKeyEnvName } from '../providers/env.js';
import { roleModels } from '../experiment/judge-panel.js';
import type { ResolvedModels } from '../experiment/types.js';

const ALWAYS_SECRET = ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY', 'ANTHROPIC_AUTH_TOKEN'];

export function scrubSecrets(env: NodeJS.ProcessEnv, models: ResolvedModels): NodeJS.ProcessEnv {
  const secret = new Set(ALWAYS_SECRET);
  for (const { entry } of roleModels(models)) {
    const name = apiKeyEnvName(entry);
    if (name) secret.add(name);
  }
  return Object.fromEntries(Object.entries(env).filter(([name]) => !secret.has(name)));
}
