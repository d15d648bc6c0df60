/**
 * The skill-trigger rules (docs/agents.md "Tuning when a skill triggers"): a case's
 * `should_trigger`, and a `skill-used` check that names no skill, ask about the experiment's own
 * skill, so they need an agent experiment that optimises one (`agent.place: skill`).
 */
import { parseCheckType } from '../checks/registry.js';
import type { Problem } from '../errors.js';
import type { DraftCase } from './cases/load-cases.js';
import { formatKeyPath, type KeyPath } from './key-path.js';
import type { PartialConfig } from './partial-config.js';
import type { Where } from './referenced-file.js';
import type { CheckEntry } from './schema.js';

const HINT = 'set `agent: { place: skill, name: <the skill>, task: "{{query}}" }` in experiment.yaml';

export function validateTriggers(
  agent: PartialConfig['agent'],
  globals: readonly (CheckEntry | undefined)[],
  cases: { file: string; drafts: readonly DraftCase[] } | undefined,
  where: Where,
): Problem[] {
  if (agent?.place === 'skill') return [];
  const why =
    agent === undefined
      ? 'the experiment has no `agent:` block'
      : `\`agent.place\` is \`${agent.place}\`, not \`skill\``;
  const problems: Problem[] = [];
  const push = (file: string, line: { line?: number; col?: number }, key: KeyPath, message: string) =>
    problems.push({
      severity: 'error',
      location: { file, ...line },
      keyPath: formatKeyPath(key),
      message,
      hint: HINT,
    });
  const ownSkill = (entry: CheckEntry | undefined) =>
    entry !== undefined && parseCheckType(entry.type).base === 'skill-used' && entry.value === undefined;
  for (const [i, entry] of globals.entries())
    if (ownSkill(entry))
      push(
        where.file,
        where.locate(['checks', i, 'type']),
        ['checks', i, 'type'],
        `\`${entry?.type}\` without a value looks for the experiment's skill, but ${why}`,
      );
  for (const c of cases?.drafts ?? []) {
    if (cases === undefined) continue;
    if (c.shouldTrigger !== undefined) {
      push(
        cases.file,
        c.locate(['should_trigger']),
        [c.index, 'should_trigger'],
        `case \`${c.id}\` says whether the agent should use the experiment's skill, but ${why}`,
      );
      continue;
    }
    for (const [i, entry] of c.checks.entries())
      if (ownSkill(entry))
        push(
          cases.file,
          c.locate(['checks', i, 'type']),
          [c.index, 'checks', i, 'type'],
          `\`${entry.type}\` without a value looks for the experiment's skill, but ${why}`,
        );
  }
  return problems;
}
