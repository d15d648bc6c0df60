/**
 * Which login an agent run can use (docs/design/agent-runs.md). The agent never holds a
 * credential: its model calls go to the runner's proxy with a one-time token, and the proxy adds
 * the real key. So only a key the runner holds works — ANTHROPIC_API_KEY for Claude Code,
 * OPENAI_API_KEY for Codex, each sent to ANTHROPIC_BASE_URL / OPENAI_BASE_URL when set. A CLI's
 * own login (`claude auth login`, `codex login`, a subscription) lives in a file the CLI reads
 * from its HOME: it would have to be copied inside the sandbox, where the agent's shell could read
 * it, so it is refused for agent cases.
 */
import type { AgentUpstream } from './agent-proxy.js';

const LOGINS = {
  claude: {
    label: 'Claude Code',
    key: 'ANTHROPIC_API_KEY',
    base: 'ANTHROPIC_BASE_URL',
    defaultBase: 'https://api.anthropic.com',
    api: 'anthropic',
    login: '`claude auth login`',
  },
  codex: {
    label: 'Codex',
    key: 'OPENAI_API_KEY',
    base: 'OPENAI_BASE_URL',
    defaultBase: 'https://api.openai.com/v1',
    api: 'openai',
    login: '`codex login`',
  },
} as const;

/** The key variable an agent run of this CLI needs. */
export function agentKeyName(agent: 'claude' | 'codex'): string {
  return LOGINS[agent].key;
}

/** Where the agent's proxy sends its calls and with which key; undefined without a key. */
export function agentUpstream(agent: 'claude' | 'codex', env: NodeJS.ProcessEnv): AgentUpstream | undefined {
  const login = LOGINS[agent];
  const key = env[login.key];
  if (key === undefined || key === '') return undefined;
  const base = env[login.base];
  return { api: login.api, baseUrl: base === undefined || base === '' ? login.defaultBase : base, key };
}

/** For `validate`: why an agent run of this CLI has no login it may use; undefined when it has one. */
export function agentCredentialProblem(
  env: NodeJS.ProcessEnv,
  agent: 'claude' | 'codex',
): string | undefined {
  if (agentUpstream(agent, env) !== undefined) return undefined;
  const login = LOGINS[agent];
  return (
    `${login.label} agent runs need ${login.key} in the environment: the runner's proxy adds it to ` +
    `every model call, so the agent never holds it. A CLI login (${login.login}, a subscription) is ` +
    `not used for agent cases: it would have to be copied into the agent's HOME, where its tools could read it`
  );
}
