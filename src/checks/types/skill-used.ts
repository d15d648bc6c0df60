/**
 * `skill-used` (docs/checks.md): an agent case's run (its tool calls, src/checks/agent/agent-evidence.ts) used the skill named in `value` — by default
 * the experiment's own (`agent.place: skill`, `agent.name`). How use is read from the transcript is
 * src/agent/skill-use.ts. `not-skill-used` passes when the agent left the skill alone; a case's
 * `should_trigger: true | false` is shorthand for one or the other (docs/agents.md "Tuning when a
 * skill triggers"). An output that is no agent run, or a run that ended in an error or a timeout
 * without using the skill, cannot be judged: the check fails as an error, under `not-` too.
 */
import { findSkillUse } from '../../agent/skill-use.js';
import { AgentConfig } from '../../experiment/schema.js';
import type { CheckDefinition, CheckIssue } from '../check-definition.js';
import { errored, failed, passed } from '../check-result.js';
import { quote } from '../check-values.js';

const SKILL_NAME = AgentConfig.shape.name.unwrap();

export const skillUsedCheck: CheckDefinition = {
  subject: 'run',
  validate(entry) {
    const issues: CheckIssue[] = [];
    if (entry.value !== undefined && !SKILL_NAME.safeParse(entry.value).success)
      issues.push({
        keyPath: 'value',
        message: "skill-used takes the skill's name in value: lowercase letters, digits and dashes",
        hint: 'e.g. { type: skill-used, value: sql-migrations }, or leave value out for the experiment’s own skill (agent.name)',
      });
    return issues;
  },
  describe(entry) {
    return typeof entry.value === 'string' ? entry.value : '';
  },
  run(_output, entry, context) {
    const skill = typeof entry.value === 'string' ? entry.value : context.agent?.skill;
    if (context.agent === undefined)
      return errored('skill-used reads what an agent did, and this output is not an agent run');
    if (skill === undefined)
      return errored('skill-used needs the skill: name it in value, or optimise one with agent.place: skill');
    const use = findSkillUse(context.agent.toolCalls, skill);
    if (use.used) return passed(`the agent used the skill ${quote(skill)} (call ${use.call}: ${use.how})`);
    // A run that broke off may have been about to use it: not using it is no answer then.
    const { endReason } = context.agent;
    if (endReason === 'error' || endReason === 'timeout')
      return errored(
        `the agent's run ended with ${endReason} before it used the skill ${quote(skill)}: whether it would have cannot be told`,
      );
    const instead =
      use.others.length === 0 ? '' : `; it used ${use.others.map((name) => quote(name)).join(', ')} instead`;
    return failed(`the agent did not use the skill ${quote(skill)}${instead}`);
  },
};
