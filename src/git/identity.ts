/**
 * Who the run's commits are by (docs/design/git-layout.md): the user's effective git config
 * (repository, then global, then system), field by field, else
 * `autoresearch <autoresearch@localhost>`.
 */
import type { GitRunner } from './git-runner.js';

export interface CommitIdentity {
  name: string;
  email: string;
  /** `config` when both fields came from git config, `fallback` when neither did. */
  source: 'config' | 'fallback' | 'mixed';
}

export const FALLBACK_IDENTITY = { name: 'autoresearch', email: 'autoresearch@localhost' } as const;

/** Fill whatever the user did not configure with the fallback; blank values count as unset. */
export function chooseIdentity(configured: { name?: string; email?: string }): CommitIdentity {
  const name = configured.name?.trim() || undefined;
  const email = configured.email?.trim() || undefined;
  const fromConfig = (name === undefined ? 0 : 1) + (email === undefined ? 0 : 1);
  return {
    name: name ?? FALLBACK_IDENTITY.name,
    email: email ?? FALLBACK_IDENTITY.email,
    source: fromConfig === 2 ? 'config' : fromConfig === 0 ? 'fallback' : 'mixed',
  };
}

/** `-c` settings that make commit-tree write this identity without touching any config file. */
export function identityConfig(identity: CommitIdentity): string[] {
  return [`user.name=${identity.name}`, `user.email=${identity.email}`];
}

async function readConfigValue(git: GitRunner, key: string): Promise<string | undefined> {
  // Exit 1 means the key is not set anywhere.
  const result = await git(['config', '--get', key], { okExitCodes: [0, 1] });
  return result.exitCode === 0 ? result.stdout.trim() : undefined;
}

export async function resolveIdentity(git: GitRunner): Promise<CommitIdentity> {
  const [name, email] = await Promise.all([
    readConfigValue(git, 'user.name'),
    readConfigValue(git, 'user.email'),
  ]);
  return chooseIdentity({
    ...(name === undefined ? {} : { name }),
    ...(email === undefined ? {} : { email }),
  });
}
