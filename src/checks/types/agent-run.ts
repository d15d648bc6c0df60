/**
 * Checks on how an agent case went (docs/design/checks.md "Checks on an agent's files and
 * actions"), read from its record: `turn-count` (model turns within bounds), `end-reason` (the run
 * ended the way `value` says: `done`, `max_turns`, `timeout`, `error`, or a list of them) and
 * `tool-error-count` (tool calls whose result was an error, within bounds).
 */
import { AGENT_END_REASONS } from '../../agent/agent-record.js';
import type { CheckContext, CheckDefinition } from '../check-definition.js';
import { type CheckResult, errored, verdict } from '../check-result.js';
import { describeBounds, judgeCount, readCountBounds } from '../count-bounds.js';
import { quote, readList, shorten } from '../check-values.js';
import type { AgentEvidence } from '../agent/agent-evidence.js';

function withAgent(
  type: string,
  context: CheckContext,
  judge: (agent: AgentEvidence) => CheckResult,
): CheckResult {
  return context.agent === undefined ? errored(`${type} reads an agent case’s run`) : judge(context.agent);
}

function makeRunCount(
  type: string,
  unit: string,
  count: (agent: AgentEvidence) => number,
  detail?: (agent: AgentEvidence) => string,
): CheckDefinition {
  return {
    subject: 'run',
    validate(entry) {
      return readCountBounds(entry).issues;
    },
    describe(entry) {
      return describeBounds(readCountBounds(entry).bounds);
    },
    run(_output, entry, context) {
      return withAgent(type, context, (agent) => {
        const { bounds, issues } = readCountBounds(entry);
        if (bounds === undefined) return errored(issues.map((issue) => issue.message).join('; '));
        const { ok, reason } = judgeCount(count(agent), bounds, unit);
        const more = detail?.(agent) ?? '';
        return verdict(ok, more === '' ? reason : `${reason} (${more})`);
      });
    },
  };
}

export const turnCountCheck = makeRunCount('turn-count', 'turns', (agent) => agent.turns);

export const toolErrorCountCheck = makeRunCount(
  'tool-error-count',
  'tool errors',
  (agent) => agent.toolCalls.filter((call) => call.error).length,
  (agent) =>
    shorten(
      agent.toolCalls
        .filter((call) => call.error)
        .map((call) => call.name)
        .join(', '),
      80,
    ),
);

function readReasons(value: unknown): string[] | undefined {
  const list = readList(value);
  return list === undefined || list.length === 0 ? undefined : list;
}

export const endReasonCheck: CheckDefinition = {
  subject: 'run',
  validate(entry) {
    const reasons = readReasons(entry.value);
    const known: readonly string[] = AGENT_END_REASONS;
    const unknown = reasons?.find((reason) => !known.includes(reason));
    if (reasons === undefined || unknown !== undefined) {
      return [
        {
          keyPath: 'value',
          message:
            unknown === undefined
              ? 'end-reason needs the end reason(s) that pass'
              : `unknown end reason ${quote(unknown)}`,
          hint: `one of ${AGENT_END_REASONS.join(', ')}, or a list of them; e.g. { type: end-reason, value: done }`,
        },
      ];
    }
    return [];
  },
  describe(entry) {
    return (readReasons(entry.value) ?? []).join(', ');
  },
  run(_output, entry, context) {
    return withAgent('end-reason', context, (agent) => {
      const wanted = readReasons(entry.value) ?? [];
      const ok = wanted.includes(agent.endReason);
      const why = agent.error === undefined ? '' : `: ${shorten(agent.error, 120)}`;
      return verdict(
        ok,
        `the agent ended with ${agent.endReason} after ${agent.turns} turn(s)${why}${ok ? '' : `, expected ${wanted.join(' or ')}`}`,
      );
    });
  },
};
