/**
 * Claude Code as an agent (docs/design/agent-runs.md): print mode with its stream of events
 * (`-p --output-format stream-json --verbose`), its permission prompts off
 * (`--dangerously-skip-permissions`: our sandbox is the boundary; as uid 0, under `process`
 * isolation as root, it refuses that flag unless IS_SANDBOX=1), its own turn limit, no MCP
 * server but the workspace's none (`--strict-mcp-config`), nothing kept of the session. The
 * allow-list goes as `--tools` (which tools exist: with permissions bypassed, `--allowedTools`
 * alone would approve the listed ones and still run the others) and as `--allowedTools`. The task
 * follows `--`, so no flag can swallow it. The environment is the claude-cli provider's
 * (CLAUDE_ENV: its own retries, nonessential traffic and auto memory off).
 */
import { CLAUDE_ENV } from '../../providers/adapters/claude-cli.js';
import type { AgentRunRequest } from '../agent-run.js';

export function buildClaudeAgentArgs(request: AgentRunRequest): string[] {
  const tools = request.limits.allowedTools;
  return [
    '-p',
    '--output-format',
    'stream-json',
    '--verbose',
    '--dangerously-skip-permissions',
    '--max-turns',
    String(request.limits.maxTurns),
    '--strict-mcp-config',
    '--no-session-persistence',
    ...(tools === undefined ? [] : [`--tools=${tools.join(',')}`, `--allowedTools=${tools.join(',')}`]),
    ...(request.model === undefined ? [] : ['--model', request.model]),
    ...(request.appendSystemPrompt === undefined
      ? []
      : ['--append-system-prompt', request.appendSystemPrompt]),
    '--',
    request.task,
  ];
}

export function claudeAgentEnv(): Record<string, string> {
  return { ...CLAUDE_ENV, IS_SANDBOX: '1' };
}
