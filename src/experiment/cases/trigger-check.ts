/**
 * A case's `should_trigger` (docs/agents.md "Tuning when a skill triggers") as the check it stands
 * for: `skill-used` when the agent should use the experiment's skill for the case's task,
 * `not-skill-used` when it should not. Scored like any check, so the checks signal is the share of
 * cases the skill's description got right.
 */
import type { CheckEntry } from '../schema.js';

export function triggerCheck(shouldTrigger: boolean): CheckEntry {
  return { type: shouldTrigger ? 'skill-used' : 'not-skill-used' };
}
