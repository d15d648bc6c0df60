/**
 * Codex as an agent (docs/design/agent-runs.md): `codex exec --json` with its approvals and its
 * own sandbox off (`--dangerously-bypass-approvals-and-sandbox`: its bubblewrap cannot nest under
 * ours, which is the boundary), no git check (a workspace need not be a repository), nothing kept
 * of the session, and the codex-cli provider's model provider (codexProviderSettings: the
 * Responses API, Codex's own retries off) pointed at the runner's proxy, whose one-time token is
 * its key (CODEX_API_KEY). Off besides: web search (a hosted tool whose answers change), sub-agents,
 * goals, the question tool exec mode cannot answer, plugins and analytics. Codex has no turn limit
 * of its own: the proxy refuses the call past `max_turns`.
 *
 * `tools:` names Codex's own tools: `exec_command` (its shell, with `write_stdin`), `apply_patch`,
 * `view_image`; one left out is turned off where Codex has a switch for it (CODEX_TOOL_SWITCHES):
 * `apply_patch` and `write_stdin` have none and stay on (CODEX_TOOLS_ALWAYS_ON).
 */
import { codexProviderSettings } from '../../providers/adapters/codex-cli.js';
import type { AgentRunRequest } from '../agent-run.js';

export const CODEX_AGENT_OFF: readonly string[] = [
  'web_search="disabled"',
  'features.multi_agent=false',
  'features.goals=false',
  'tools.experimental_request_user_input.enabled=false',
  'features.plugins=false',
  'analytics.enabled=false',
];

/** Codex's tools that have a setting to turn them off, and the setting. */
export const CODEX_TOOL_SWITCHES: Readonly<Record<string, string>> = {
  exec_command: 'features.shell_tool=false',
  view_image: 'features.view_image=false',
};

/** Codex's own tools that stay on whatever `tools:` says: 0.171 has no switch for them. */
export const CODEX_TOOLS_ALWAYS_ON: readonly string[] = ['apply_patch', 'write_stdin'];

/** Names in `tools:` that are none of Codex's tools (for validate). */
export function unknownCodexTools(tools: readonly string[]): string[] {
  return tools.filter((tool) => !(tool in CODEX_TOOL_SWITCHES) && !CODEX_TOOLS_ALWAYS_ON.includes(tool));
}

export function buildCodexAgentArgs(request: AgentRunRequest, proxyBaseUrl: string): string[] {
  const allowed = request.limits.allowedTools;
  const switches =
    allowed === undefined
      ? []
      : Object.entries(CODEX_TOOL_SWITCHES)
          .filter(([tool]) => !allowed.includes(tool))
          .map(([, setting]) => setting);
  const settings = [
    ...codexProviderSettings({ provider: 'codex-cli', base_url: proxyBaseUrl }),
    ...CODEX_AGENT_OFF,
    ...switches,
  ];
  return [
    'exec',
    '--json',
    '--dangerously-bypass-approvals-and-sandbox',
    '--skip-git-repo-check',
    '--ephemeral',
    '--color',
    'never',
    ...(request.model === undefined ? [] : ['-m', request.model]),
    ...settings.flatMap((setting) => ['-c', setting]),
    '--',
    request.task,
  ];
}

/** The key Codex presents to the provider: the proxy's token. */
export function codexAgentEnv(token: string): Record<string, string> {
  return { CODEX_API_KEY: token };
}
