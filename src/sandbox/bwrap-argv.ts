/**
 * The bubblewrap command line for one judge or grader attempt (docs/design/isolation.md), from a
 * plan of what to show the program. Pure: which paths exist and what they hold is decided by
 * sandbox-mounts.ts. Every namespace is new (user, PID, IPC, UTS, cgroup, network, mount);
 * the root is an empty tmpfs holding only the binds below, so nothing is visible by default.
 *
 * Whoever starts it, root included, the program holds no privilege inside: it runs as an
 * unprivileged id of its own user namespace with every capability dropped (bounding set
 * included) and no-new-privileges (bubblewrap always sets it), may not make another user
 * namespace, and sees /proc read-only. Started by root without these, it kept nearly every
 * capability and could remount its read-only binds writable.
 */

export const BWRAP = 'bwrap';

/** Where the program finds its files inside the sandbox: neutral names, no host path. */
export const SANDBOX_WORK = '/sandbox';
export const SANDBOX_HOME = '/home/sandbox';
export const SANDBOX_PROXY_SOCKET = '/run/autoresearch/proxy.sock';
/** The relay's port on the sandbox's own loopback (its network namespace is private, so no clash). */
export const RELAY_PORT = 41414;
/** The user and group the program runs as inside: `nobody`, the same whoever starts it. */
export const SANDBOX_ID = 65534;

/**
 * The hardening every sandbox gets, the probe included (isolation.ts): an explicit user
 * namespace (as root, `--unshare-all` makes none worth the name), the unprivileged id, no
 * capabilities and no nested user namespace (a new one would hand the program capabilities
 * again, over its own mounts). bubblewrap 0.8 or newer (`--disable-userns`).
 */
export const HARDENING = [
  '--unshare-all',
  '--unshare-user',
  '--disable-userns',
  '--uid',
  String(SANDBOX_ID),
  '--gid',
  String(SANDBOX_ID),
  '--cap-drop',
  'ALL',
  '--die-with-parent',
  '--new-session',
] as const;

export type Mount =
  | { kind: 'ro'; source: string; dest: string }
  /** A private folder of the evaluation's (a CLI's copied login: cli-login-copy.ts). */
  | { kind: 'rw'; source: string; dest: string }
  | { kind: 'symlink'; target: string; path: string };

export interface BwrapPlan {
  /** The evaluation's sandbox folder: the cwd, writable like the private HOME and /tmp. */
  workDir: string;
  /** Where it appears inside: SANDBOX_WORK, or an agent's fixed workspace path (docs/design/agent-runs.md). */
  workPath?: string;
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
  /** The size of the private /tmp (RAM-backed), in bytes. */
  tmpBytes: number;
  env: Readonly<Record<string, string>>;
}

/**
 * bubblewrap's options, for `--args` (bwrapArgsData); the program's argv follows `--` on the
 * command line, where bubblewrap wants it.
 */
export function buildBwrapOptions(plan: BwrapPlan): string[] {
  const args: string[] = [...HARDENING];
  if (plan.shareNet) args.push('--share-net');
  // The private /tmp and HOME first: a program file (or the Node installation) that lives
  // under the host's /tmp or the home is bound on top. /proc read-only: writable files there
  // check only the kernel's uid (drop_caches, sysctls), which is root's when root started it.
  args.push('--proc', '/proc', '--remount-ro', '/proc', '--dev', '/dev');
  args.push('--size', String(plan.tmpBytes), '--tmpfs', '/tmp');
  args.push('--bind', plan.home.dir, plan.home.path);
  for (const mount of plan.mounts) {
    if (mount.kind === 'ro') args.push('--ro-bind', mount.source, mount.dest);
    else if (mount.kind === 'rw') args.push('--bind', mount.source, mount.dest);
    else args.push('--symlink', mount.target, mount.path);
  }
  const workPath = plan.workPath ?? SANDBOX_WORK;
  args.push('--bind', plan.workDir, workPath);
  if (plan.proxySocket !== undefined) args.push('--bind', plan.proxySocket, SANDBOX_PROXY_SOCKET);
  args.push('--chdir', workPath, '--clearenv');
  for (const [name, value] of Object.entries(plan.env)) args.push('--setenv', name, value);
  return args;
}

/**
 * The options as `bwrap --args FD` reads them: each ended by a NUL. Passed on a descriptor,
 * they stay off every command line (`ps` on the host, /proc/1/cmdline inside): the one-time
 * proxy token and the host paths behind the binds among them.
 */
export function bwrapArgsData(args: readonly string[]): string {
  return args.map((arg) => `${arg}\0`).join('');
}
