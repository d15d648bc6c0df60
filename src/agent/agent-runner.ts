/**
 * Who runs an agent experiment's cases (docs/design/agent-runs.md): the simulated agent for the
 * `sim` provider, the CLI runner for Claude Code and Codex. Built once per run by the shell and
 * passed in as a part, like the judge and the grader.
 */
import type { Experiment } from '../experiment/types.js';
import type { RunAgent } from './agent-run.js';
import { agentKindOf } from './agent-target.js';
import { runCliAgent } from './cli/run-cli-agent.js';
import { runSimAgent } from './sim-agent.js';

export function agentPart(experiment: Experiment): { agent?: RunAgent } {
  if (experiment.agent === undefined) return {};
  const kind = agentKindOf(experiment.models.generator.provider);
  if (kind === 'sim') return { agent: runSimAgent };
  return kind === undefined ? {} : { agent: runCliAgent };
}
