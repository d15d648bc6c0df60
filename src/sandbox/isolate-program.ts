/**
 * How one judge or grader attempt is started under each isolation (docs/design/judge-protocol.md,
 * docs/design/isolation.md). `process`: the program itself, cwd the sandbox folder, the
 * allow-listed environment, the proxy on a loopback port. `os`: prlimit (the limits,
 * sandbox-limits.ts) becoming bubblewrap (its options on a descriptor, bwrap-argv.ts) around the
 * relay (sandbox-relay.ts, holding the runner's lifeline) and the program, showing only what
 * sandbox-mounts.ts lists; the proxy on a Unix socket in the sandbox's private folder, reached
 * through the relay; a claude/codex CLI gets a private copy of its login instead
 * (cli-login-copy.ts).
 */
import { join } from 'node:path';
import { findPackageRoot } from '../package-root.js';
import type { ProcessRun } from '../process/run-process.js';
import {
  BWRAP,
  buildBwrapOptions,
  type Mount,
  bwrapArgsData,
  RELAY_PORT,
  SANDBOX_HOME,
  SANDBOX_PROXY_SOCKET,
} from './bwrap-argv.js';
import { copyCliLogin } from './cli-login-copy.js';
import type { Isolation } from './isolation.js';
import { type ModelProxy, type ModelProxyOptions, startModelProxy } from './model-proxy.js';
import type { Sandbox } from './sandbox.js';
import type { ProxyListen, SandboxAgent } from './sandbox-agent.js';
import { buildSandboxEnv } from './sandbox-env.js';
import { DEFAULT_LIMITS, MB, PRLIMIT, rlimitOptions, type SandboxLimits } from './sandbox-limits.js';
import { nodeMounts, packageMounts, programMounts, systemMounts } from './sandbox-mounts.js';

export interface IsolatedProgram {
  argv: readonly string[];
  /** What the program may see of the runner's environment (only the allow-list passes). */
  env: NodeJS.ProcessEnv;
  isolation: Isolation;
  /** Where relative paths of a `command` were resolved: the project, never shown under `os`. */
  projectDir: string;
  cliAgent: boolean;
  /** A coding agent: its workspace path and variables (sandbox-agent.ts). */
  agent?: Pick<SandboxAgent, 'workspacePath' | 'env' | 'readOnly'>;
  /** Set over the allow-list: data for the program (a workspace check's case vars), never a secret. */
  extraEnv?: Readonly<Record<string, string>>;
}

/** Where a proxy listens for this attempt's program: a loopback port, or the socket the relay reaches. */
export function proxyListen(sandbox: Sandbox, isolation: Isolation): ProxyListen {
  if (isolation !== 'os') return {};
  return {
    unixSocket: { path: join(sandbox.root, 'proxy.sock'), relayUrl: `http://127.0.0.1:${RELAY_PORT}` },
  };
}

/** The proxy for this attempt, listening where the program can reach it. */
export function startProxyFor(
  options: Pick<ModelProxyOptions, 'client' | 'signal' | 'refresh' | 'fresh'>,
  sandbox: Sandbox,
  isolation: Isolation,
): Promise<ModelProxy> {
  return startModelProxy({ ...options, ...proxyListen(sandbox, isolation) });
}

/** What to start: the program, or bubblewrap around the relay and the program. */
export type IsolatedStart = Pick<ProcessRun, 'file' | 'args' | 'cwd' | 'env' | 'extraFds'>;

/** The descriptor bwrap reads its options from (`--args`), after the relay's lifeline (3). */
const LIFELINE_FD = 3;
const OPTIONS_FD = 4;

/** The process to start: the program, or bubblewrap around the relay and the program. */
export async function isolateProgram(
  program: IsolatedProgram,
  sandbox: Sandbox,
  proxy: ModelProxy | undefined,
  limits: SandboxLimits = DEFAULT_LIMITS,
): Promise<IsolatedStart> {
  const { cliAgent, isolation, projectDir } = program;
  const parent = program.env;
  const inside = isolation === 'os';
  const env = buildSandboxEnv({
    parent,
    home: inside ? SANDBOX_HOME : sandbox.home,
    ...(proxy === undefined ? {} : { proxy }),
    ...(cliAgent ? { cliAgent: true } : {}),
  });
  if (program.agent !== undefined && proxy !== undefined) Object.assign(env, program.agent.env(proxy));
  if (program.extraEnv !== undefined) Object.assign(env, program.extraEnv);
  if (!inside) {
    const [file = '', ...args] = program.argv;
    return { file, args, cwd: sandbox.dir, env };
  }
  // The host's temp folder is not there: the sandbox has its own /tmp.
  for (const name of ['TMPDIR', 'TMP', 'TEMP']) if (env[name] !== undefined) env[name] = '/tmp';
  const packageRoot = findPackageRoot();
  // Every program behind the relay: it ends the sandbox when the runner goes (sandbox-relay.ts).
  const relay = [
    process.execPath,
    join(packageRoot, 'dist', 'sandbox', 'sandbox-relay.js'),
    '--lifeline',
    String(LIFELINE_FD),
    ...(proxy === undefined ? [] : ['--proxy', SANDBOX_PROXY_SOCKET, String(RELAY_PORT)]),
    '--',
    ...program.argv,
  ];
  // A CLI finds its private HOME at the home's path, holding a copy of its login; the copy
  // goes with the sandbox.
  const home = cliAgent ? (env['HOME'] ?? SANDBOX_HOME) : SANDBOX_HOME;
  const login = cliAgent
    ? await copyCliLogin(parent, home, { privateHome: sandbox.home, privateRoot: sandbox.root })
    : [];
  const options = buildBwrapOptions({
    workDir: sandbox.dir,
    ...(program.agent === undefined ? {} : { workPath: program.agent.workspacePath }),
    home: { dir: sandbox.home, path: home },
    mounts: [
      ...systemMounts(),
      ...login,
      ...nodeMounts(),
      ...packageMounts(packageRoot, projectDir),
      ...programMounts(program.argv, parent['PATH']),
      ...(program.agent?.readOnly ?? []).map((path): Mount => ({ kind: 'ro', source: path, dest: path })),
    ],
    ...(proxy === undefined ? {} : { proxySocket: join(sandbox.root, 'proxy.sock') }),
    shareNet: cliAgent,
    tmpBytes: limits.tmp_mb * MB,
    env,
  });
  // prlimit sets the limits and becomes bwrap (the same process), whose children inherit them.
  // bwrap itself gets only PATH (to find the program); `--clearenv` leaves the program `env` alone.
  return {
    file: PRLIMIT,
    args: [...rlimitOptions(limits), '--', BWRAP, '--args', String(OPTIONS_FD), '--', ...relay],
    cwd: sandbox.dir,
    env: { PATH: parent['PATH'] ?? '/usr/bin:/bin' },
    extraFds: [{ kind: 'lifeline' }, { kind: 'input', text: bwrapArgsData(options) }],
  };
}
