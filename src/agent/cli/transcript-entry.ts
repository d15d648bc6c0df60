/**
 * Pieces shared by the two stream parsers: a tool result cut to TOOL_RESULT_LIMIT (the agent saw
 * it whole; the transcript says how much it left out), the stream's JSON lines, and what a
 * parsed stream says.
 */
import { TOOL_RESULT_LIMIT, type AgentUsage, type TranscriptEntry } from '../agent-run.js';

export function toolResult(
  turn: number,
  id: string,
  content: string,
  isError: boolean,
): Extract<TranscriptEntry, { kind: 'tool_result' }> {
  if (content.length <= TOOL_RESULT_LIMIT) return { kind: 'tool_result', turn, id, isError, content };
  return {
    kind: 'tool_result',
    turn,
    id,
    isError,
    content: content.slice(0, TOOL_RESULT_LIMIT),
    truncated: { originalChars: content.length },
  };
}

/** What an agent's stream says about its run. */
export interface ParsedStream {
  transcript: TranscriptEntry[];
  finalMessage: string;
  /** Model turns the stream counts; undefined when it does not say (Codex: the proxy counts). */
  turns?: number;
  usage: AgentUsage;
  reportedCostUsd?: number;
  /** How the CLI says it ended: undefined when the stream has no ending (killed, crashed). */
  ended?: 'done' | 'max_turns' | 'error';
  /** The CLI's own words for an error ending. */
  error?: string;
}

export const NO_USAGE: AgentUsage = {
  inputTokens: 0,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
};
