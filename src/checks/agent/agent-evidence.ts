/**
 * What the checks of an agent experiment know of a case besides its output text (docs/design/checks.md
 * "Checks on an agent's files and actions"): how the run ended, its turns, its tool calls with their
 * arguments and errors, the workspace as the agent left it, and the results of the commands run in
 * a copy of it. Built in one place from the case's record, so every check that reads an agent's
 * run (file-exists, `file:`, tool-call, turn-count, end-reason, tool-error-count, command with
 * `in: workspace`, skill-used) reads the same thing, fresh or resumed.
 */
import type { AgentCaseRecord } from '../../agent/agent-record.js';
import type { AgentToolCall } from '../../agent/agent-tool-calls.js';
import type { CheckResult } from '../check-result.js';
import { type FinishedWorkspace, finishedWorkspace } from './finished-workspace.js';

export interface AgentEvidence {
  endReason: AgentCaseRecord['endReason'];
  turns: number;
  /** Why the run failed, for `end-reason`'s reason. */
  error?: string;
  toolCalls: readonly AgentToolCall[];
  workspace: FinishedWorkspace;
  /** Results of `command` checks with `in: workspace`, by their key (workspace-commands.ts). */
  workspaceChecks: ReadonlyMap<string, CheckResult>;
  /** `agent.place: skill`: the optimised skill's name, which `skill-used` looks for by default. */
  skill?: string;
}

export interface AgentEvidenceInput {
  record: AgentCaseRecord;
  toolCalls: readonly AgentToolCall[];
  /** The kept files' texts, by path (the case's output folder). */
  texts: ReadonlyMap<string, string>;
  /** The fixture folders the workspace was made from, shared first (absolute). */
  fixtures: readonly string[];
  skill?: string;
}

export function agentEvidenceOf(input: AgentEvidenceInput): AgentEvidence {
  const { record } = input;
  const left = record.files.map((file) => {
    const text = input.texts.get(file.path);
    return { ...file, ...(text === undefined ? {} : { text }) };
  });
  return {
    endReason: record.endReason,
    turns: record.turns,
    ...(record.error === undefined ? {} : { error: record.error }),
    toolCalls: input.toolCalls,
    workspace: finishedWorkspace(left, input.fixtures),
    workspaceChecks: new Map(
      (record.workspaceChecks ?? []).map(({ key, name: _name, ...result }) => [key, result]),
    ),
    ...(input.skill === undefined ? {} : { skill: input.skill }),
  };
}
