/**
 * The tool calls of one agent case, with their arguments and whether each came back as an error
 * (docs/design/agent-runs.md "One case"): what `tool-call`, `tool-error-count`, `javascript` and
 * `command` checks read of an agent's actions. Kept beside agent.json as `tool-calls.json`, so a
 * resumed case's checks read the same calls, while agent.json (which `show` and the report embed)
 * stays small.
 */
import { z } from 'zod';
import { isRecord } from '../is-record.js';
import type { TranscriptEntry } from './agent-run.js';

export const AgentToolCall = z.object({
  name: z.string(),
  /** The call's input; one that is not an object (rare) as `{ input }`. */
  arguments: z.record(z.string(), z.unknown()),
  /** Its result was an error (a failed command, a refused edit). */
  error: z.boolean(),
});
export type AgentToolCall = z.infer<typeof AgentToolCall>;

export const AgentToolCallsFile = z.object({ calls: z.array(AgentToolCall) });
export type AgentToolCallsFile = z.infer<typeof AgentToolCallsFile>;

/** A tool call of the transcript with its error result's text, when its result was an error. */
export interface PairedCall {
  call: Extract<TranscriptEntry, { kind: 'tool_call' }>;
  error: string | undefined;
}

/**
 * Each tool call in order, paired with its result when that was an error: the one reading of which
 * calls failed, for the checks' calls here and the record's short calls (agent-calls.ts). A call
 * whose result never came counts as no error.
 */
export function pairToolCalls(transcript: readonly TranscriptEntry[]): PairedCall[] {
  const errors = new Map<string, string>();
  for (const entry of transcript)
    if (entry.kind === 'tool_result' && entry.isError) errors.set(entry.id, entry.content);
  return transcript.flatMap((entry) =>
    entry.kind === 'tool_call' ? [{ call: entry, error: errors.get(entry.id) }] : [],
  );
}

/** The calls in the order they were made, with their whole arguments. */
export function toolCallsOf(transcript: readonly TranscriptEntry[]): AgentToolCall[] {
  return pairToolCalls(transcript).map(({ call, error }) => ({
    name: call.tool,
    arguments: argumentsOf(call.input),
    error: error !== undefined,
  }));
}

function argumentsOf(input: unknown): Record<string, unknown> {
  if (isRecord(input)) return input;
  return input === undefined || input === null ? {} : { input };
}
