/**
 * An agent experiment's target as the run uses it (docs/design/agent-runs.md): the `agent:` block
 * with its folders made absolute, and which agent a generator provider stands for.
 */
import { resolve } from 'node:path';
import type { AgentConfig, AgentPlace, ProviderName } from '../experiment/schema.js';
import type { AgentKind, AgentLimits } from './agent-run.js';

export interface AgentTarget {
  place: AgentPlace;
  name?: string;
  /** The skill's other files (absolute). */
  files?: string;
  /** The user message's template. */
  task: string;
  /** Shared fixtures (absolute). */
  fixtures?: string;
  git: boolean;
  limits: AgentLimits;
}

/** The providers that can run agent cases, and the agent each stands for. */
const AGENT_OF_PROVIDER: Partial<Record<ProviderName, AgentKind>> = {
  'claude-cli': 'claude',
  'codex-cli': 'codex',
  sim: 'sim',
};

export const AGENT_PROVIDERS = Object.keys(AGENT_OF_PROVIDER) as ProviderName[];

/** The agent a generator provider runs, or undefined when it cannot run agent cases. */
export function agentKindOf(provider: ProviderName): AgentKind | undefined {
  return AGENT_OF_PROVIDER[provider];
}

export function resolveAgentTarget(config: AgentConfig, experimentDir: string): AgentTarget {
  return {
    place: config.place,
    ...(config.name === undefined ? {} : { name: config.name }),
    ...(config.files === undefined ? {} : { files: resolve(experimentDir, config.files) }),
    task: config.task,
    ...(config.fixtures === undefined ? {} : { fixtures: resolve(experimentDir, config.fixtures) }),
    git: config.git,
    limits: {
      ...(config.tools === undefined ? {} : { allowedTools: config.tools }),
      maxTurns: config.max_turns,
      timeoutMs: Math.round(config.timeout_s * 1000),
    },
  };
}
