/**
 * The environment for user programs (javascript-file and command checks): the runner's own,
 * minus every API key the experiment's models use, so a check script never holds a secret.
 */
import type { ResolvedModels } from '../experiment/types.js';
import { withoutKeys } from '../providers/role-env.js';

export function scrubSecrets(env: NodeJS.ProcessEnv, models: ResolvedModels): NodeJS.ProcessEnv {
  return withoutKeys(env, models);
}
