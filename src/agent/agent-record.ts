/**
 * `agent/<case-id>.<sample>/agent.json` (docs/design/agent-runs.md "One case"): how one agent case
 * ended and what it left, written once the case is captured and read back by `show` and the
 * report with the same schema.
 */
import { z } from 'zod';
import { CheckResult } from '../checks/check-result.js';

export const AgentFileRecord = z.object({
  path: z.string(),
  status: z.enum(['created', 'changed', 'deleted']),
  kind: z.enum(['file', 'link', 'other']),
  size: z.number().int().min(0).optional(),
  target: z.string().optional(),
  /** Why its content is not under files/ (too large, not text, …). */
  skipped: z.string().optional(),
});
export type AgentFileRecord = z.infer<typeof AgentFileRecord>;

/**
 * One tool call in the order the agent made it: its arguments in a line (a path, a command, a
 * pattern; cut to CALL_ARGS_CHARS) and, when the tool reported an error, its first words.
 */
export const AgentCallRecord = z.object({
  tool: z.string(),
  args: z.string(),
  error: z.string().optional(),
});
export type AgentCallRecord = z.infer<typeof AgentCallRecord>;

export const AGENT_END_REASONS = ['done', 'max_turns', 'timeout', 'error'] as const;

/**
 * A `command` check with `in: workspace`, run in a copy of the workspace as the agent left it
 * (docs/design/checks.md): its result, found again by `key` when the checks run.
 */
export const WorkspaceCheckRecord = CheckResult.extend({
  /** What the check ran (its argv, timeout and threshold), hashed. */
  key: z.string(),
  /** The check's display name, for a reader of the record. */
  name: z.string(),
});
export type WorkspaceCheckRecord = z.infer<typeof WorkspaceCheckRecord>;

export const AgentCaseRecord = z.object({
  version: z.literal(1),
  agent: z.enum(['claude', 'codex', 'sim']),
  caseId: z.string(),
  sample: z.number().int().min(0),
  /**
   * What the case was run from (agent, model, the placed text, the task, the sample index): a
   * resumed evaluation reuses a record whose key matches instead of running the case again.
   */
  key: z.string(),
  endReason: z.enum(AGENT_END_REASONS),
  turns: z.number().int().min(0),
  durationMs: z.number().min(0),
  usage: z.object({
    inputTokens: z.number(),
    outputTokens: z.number(),
    cacheReadTokens: z.number(),
    cacheWriteTokens: z.number(),
  }),
  reportedCostUsd: z.number().nullable(),
  error: z.string().optional(),
  finalMessage: z.string(),
  /** How often each tool was called. */
  tools: z.record(z.string(), z.number().int().min(1)),
  /**
   * Each tool call in order, at most MAX_RECORDED_CALLS (the first ones); absent in records
   * written before it. What the mutator's digest of the case is made from.
   */
  calls: z.array(AgentCallRecord).optional(),
  /** Tool calls made beyond MAX_RECORDED_CALLS, not in `calls`. */
  callsOmitted: z.number().int().min(1).optional(),
  files: z.array(AgentFileRecord),
  /** The workspace held more entries than were compared. */
  truncated: z.boolean(),
  /** The case's `command` checks with `in: workspace`, run before the workspace was removed. */
  workspaceChecks: z.array(WorkspaceCheckRecord).optional(),
});
export type AgentCaseRecord = z.infer<typeof AgentCaseRecord>;

export const AGENT_RECORD_FILES = {
  record: 'agent.json',
  transcript: 'transcript.md',
  /** Every tool call with its arguments (src/agent/agent-tool-calls.ts). */
  toolCalls: 'tool-calls.json',
  files: 'files',
} as const;
