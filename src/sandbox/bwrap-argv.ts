/**
 * The bubblewrap command line for one judge or grader attempt (docs/design/isolation.md), from a
 * plan of what to show the program. Pure: which paths exist and what they hold is decided by
 * sandbox-mounts.ts. Every namespace is new (user, PID, IPC, UTS, cgroup, network, mount);
 * the root is an empty tmpfs holding only the binds below, so nothing is visible by default.
 */
import { BWRAP } from './isolation.js';

/** Where the program finds its files inside the sandbox: neutral names, no host path. */
export const SANDBOX_WORK = '/sandbox';
export const SANDBOX_HOME = '/home/sandbox';
export const SANDBOX_PROXY_SOCKET = '/run/autoresearch/proxy.sock';
/** The relay's port on the sandbox's own loopback (its network namespace is private, so no clash). */
export const RELAY_PORT = 41414;

export type Mount =
  | { kind: 'ro'; source: string; dest: string }
  /** A private folder of the evaluation's (a CLI's copied login: cli-login-copy.ts). */
  | { kind: 'rw'; source: string; dest: string }
  | { kind: 'symlink'; target: string; path: string };

export interface BwrapPlan {
  /** The evaluation's sandbox folder: the cwd, writable like the private HOME and /tmp. */
  workDir: string;
  /**
   * The evaluation's private HOME folder and where it appears: `/home/sandbox`, or the user's
   * home path for a claude/codex CLI (then it holds a copy of the CLI's login).
   */
  home: { dir: string; path: string };
  /** Read-only system, runtime and program binds, symlinks and private read-write folders. */
  mounts: readonly Mount[];
  /** The runner's Unix socket, bound where the relay expects it. */
  proxySocket?: string;
  /** A CLI judge calls its service itself: the host's network instead of none. */
  shareNet: boolean;
  env: Readonly<Record<string, string>>;
  argv: readonly string[];
}

export function buildBwrapArgv(plan: BwrapPlan): string[] {
  const args = ['--unshare-all', '--die-with-parent', '--new-session'];
  if (plan.shareNet) args.push('--share-net');
  // The private /tmp and HOME first: a program file (or the Node installation) that lives
  // under the host's /tmp or the home is bound on top.
  args.push('--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp');
  args.push('--bind', plan.home.dir, plan.home.path);
  for (const mount of plan.mounts) {
    if (mount.kind === 'ro') args.push('--ro-bind', mount.source, mount.dest);
    else if (mount.kind === 'rw') args.push('--bind', mount.source, mount.dest);
    else args.push('--symlink', mount.target, mount.path);
  }
  args.push('--bind', plan.workDir, SANDBOX_WORK);
  if (plan.proxySocket !== undefined) args.push('--bind', plan.proxySocket, SANDBOX_PROXY_SOCKET);
  args.push('--chdir', SANDBOX_WORK, '--clearenv');
  for (const [name, value] of Object.entries(plan.env)) args.push('--setenv', name, value);
  return [BWRAP, ...args, '--', ...plan.argv];
}
