/**
 * A coding agent in the sandbox (docs/design/agent-runs.md): unlike a claude/codex judge, which
 * keeps its own login and the host network, an agent gets the caller's workspace at one fixed
 * path, reaches only the caller's model proxy (which holds the real key: the agent gets the
 * proxy's one-time token), sees no login of the user's, and gets a few variables of its own.
 */
import type { ModelProxy } from './model-proxy.js';
import type { Sandbox } from './sandbox.js';
import type { ProxyAccess } from './sandbox-env.js';

/** Where a proxy listens so the program can reach it: a loopback port, or under `os` a Unix socket behind the relay. */
export interface ProxyListen {
  unixSocket?: { path: string; relayUrl: string };
}

export interface SandboxAgent {
  /** Where the workspace appears inside under `os` (under `process`, the cwd is the host folder). */
  workspacePath: string;
  /** Set over the allow-listed environment and the proxy's variables, once the proxy listens. */
  env(proxy: ProxyAccess): Readonly<Record<string, string>>;
  /** The caller's proxy for the agent's model traffic, started where the program can reach it. */
  startProxy(listen: ProxyListen, sandbox: Sandbox): Promise<ModelProxy>;
  /** The program's argv once its proxy listens (a CLI may take the proxy's address as a flag). */
  argv(proxy: ProxyAccess): readonly string[];
  /** Host folders shown read-only under `os` besides the program's files: the CLI's installation. */
  readOnly: readonly string[];
}
