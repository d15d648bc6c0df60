/**
 * `agent/<case-id>.<sample>/agent.json` (docs/design/agent-runs.md "One case"): how one agent case
 * ended and what it left, written once the case is captured and read back by `show` and the
 * report with the same schema; beside it `transcript.json`, the transcript as data, which the
 * checks on the agent's actions read again when a resumed run reuses the case.
 */
import { z } from 'zod';
import type { TranscriptEntry } from './agent-run.js';

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
  endReason: z.enum(['done', 'max_turns', 'timeout', 'error']),
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
});
export type AgentCaseRecord = z.infer<typeof AgentCaseRecord>;

const TranscriptEntrySchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('assistant'), turn: z.number(), text: z.string() }),
  z.object({
    kind: z.literal('tool_call'),
    turn: z.number(),
    id: z.string(),
    tool: z.string(),
    input: z.unknown(),
  }),
  z.object({
    kind: z.literal('tool_result'),
    turn: z.number(),
    id: z.string(),
    isError: z.boolean(),
    content: z.string(),
    truncated: z.object({ originalChars: z.number() }).optional(),
  }),
  z.object({ kind: z.literal('error'), turn: z.number(), message: z.string() }),
]);

export const TranscriptFile = z.object({
  version: z.literal(1),
  entries: z.array(TranscriptEntrySchema),
});
export type TranscriptFile = z.infer<typeof TranscriptFile>;
// The file holds the runner's own entries: the two shapes may not drift apart.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _sameEntries: Same<TranscriptFile['entries'][number], TranscriptEntry> = true;
void _sameEntries;

export const AGENT_RECORD_FILES = {
  record: 'agent.json',
  transcript: 'transcript.md',
  /** TranscriptFile; a record written before it existed has none, and its case is run again. */
  entries: 'transcript.json',
  files: 'files',
} as const;
