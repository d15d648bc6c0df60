/**
 * An agent experiment's rules (docs/design/agent-runs.md): who can run its cases, what each
 * place needs, folders that exist, and the prompt shapes an agent case cannot take. A case that
 * names fixtures without an `agent:` block is refused too.
 */
import { stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { Problem } from '../errors.js';
import { AGENT_PROVIDERS, agentKindOf } from '../agent/agent-target.js';
import {
  CODEX_TOOL_SWITCHES,
  CODEX_TOOLS_ALWAYS_ON,
  unknownCodexTools,
} from '../agent/cli/codex-agent-argv.js';
import type { DraftCase } from './cases/load-cases.js';
import { formatKeyPath, type KeyPath } from './key-path.js';
import type { PartialConfig } from './partial-config.js';
import type { Where } from './referenced-file.js';
import type { ModelEntry } from './schema.js';

export async function validateAgent(
  partial: PartialConfig,
  generator: ModelEntry | undefined,
  cases: { file: string; drafts: readonly DraftCase[] } | undefined,
  where: Where,
): Promise<Problem[]> {
  const problems: Problem[] = [];
  const error = (key: KeyPath, message: string, hint?: string) =>
    problems.push({
      severity: 'error',
      location: { file: where.file, ...where.locate(key) },
      keyPath: formatKeyPath(key),
      message,
      ...(hint === undefined ? {} : { hint }),
    });
  const agent = partial.agent;
  if (agent === undefined) {
    for (const c of cases?.drafts ?? []) {
      if (c.fixtures === undefined || cases === undefined) continue;
      problems.push({
        severity: 'error',
        location: { file: cases.file, ...c.locate(['fixtures']) },
        keyPath: `[${c.index}].fixtures`,
        message: `case \`${c.id}\` names fixtures, but only agent cases have a workspace to put them in`,
        hint: 'add an `agent:` block to experiment.yaml (docs/agents.md), or drop `fixtures:`',
      });
    }
    return problems;
  }
  const provider = generator?.provider;
  const kind = provider === undefined ? undefined : agentKindOf(provider);
  if (provider !== undefined && kind === undefined)
    error(
      ['models', 'generator', 'provider'],
      `an agent experiment's cases are run by an agent, and the ${provider} provider is not one`,
      `use ${AGENT_PROVIDERS.join(', ')} (Claude Code, Codex, or the simulated agent)`,
    );
  if ((agent.place === 'skill' || agent.place === 'agent') && agent.name === undefined)
    error(['agent', 'name'], `\`agent.place: ${agent.place}\` needs a name`, 'e.g. `name: release-notes`');
  if (agent.files !== undefined && agent.place !== 'skill')
    error(['agent', 'files'], "`agent.files` holds a skill's other files, so it needs `place: skill`");
  if (kind === 'codex' && (agent.place === 'agent' || agent.place === 'system'))
    error(
      ['agent', 'place'],
      `Codex reads no ${agent.place === 'agent' ? 'agent definition in Markdown' : 'appended system prompt'}`,
      'use `place: instructions` (AGENTS.md) or `place: skill` with Codex',
    );
  const unknownTools = kind === 'codex' ? unknownCodexTools(agent.tools ?? []) : [];
  if (unknownTools.length > 0)
    error(
      ['agent', 'tools'],
      `Codex has no tool named ${unknownTools.map((t) => `\`${t}\``).join(', ')}`,
      `Codex's tools: ${[...Object.keys(CODEX_TOOL_SWITCHES), ...CODEX_TOOLS_ALWAYS_ON].join(', ')}`,
    );
  if (partial.prompt !== undefined && typeof partial.prompt !== 'string')
    error(
      ['prompt'],
      "an agent experiment's prompt is one file, the one the agent reads",
      'e.g. `prompt: SKILL.md`',
    );
  if (partial.output !== undefined)
    error(['output'], 'an agent leaves files, not a structured answer: `output:` does not apply');
  if (partial.tools !== undefined)
    error(
      ['tools'],
      "an agent uses its CLI's own tools: `tools:` does not apply",
      'list them in `agent.tools`',
    );
  const dir = dirname(where.file);
  for (const key of ['fixtures', 'files'] as const) {
    const value = agent[key];
    if (value === undefined) continue;
    const problem = await folderProblem(resolve(dir, value));
    if (problem)
      error(
        ['agent', key],
        `\`agent.${key}\` "${value}" ${problem}`,
        "paths are relative to the experiment's folder",
      );
  }
  for (const c of cases?.drafts ?? []) {
    if (cases === undefined) continue;
    const at = (key: KeyPath) => ({ file: cases.file, ...c.locate(key) });
    if (c.messages !== undefined)
      problems.push({
        severity: 'error',
        location: at(['messages']),
        keyPath: `[${c.index}].messages`,
        message: `case \`${c.id}\` has a conversation, but an agent case is one task`,
        hint: 'put the task in a var the `agent.task` template uses',
      });
    if (c.fixtures === undefined) continue;
    const problem = await folderProblem(resolve(dirname(cases.file), c.fixtures));
    if (problem)
      problems.push({
        severity: 'error',
        location: at(['fixtures']),
        keyPath: `[${c.index}].fixtures`,
        message: `case \`${c.id}\`: fixtures "${c.fixtures}" ${problem}`,
        hint: 'paths are relative to the cases file',
      });
  }
  return problems;
}

async function folderProblem(path: string): Promise<string | undefined> {
  try {
    return (await stat(path)).isDirectory() ? undefined : `is not a folder (${path})`;
  } catch {
    return `does not exist (${path})`;
  }
}
