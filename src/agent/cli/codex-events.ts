/**
 * Codex's `exec --json` events as a transcript: each `item.completed` — `agent_message` (text),
 * `command_execution` (its shell: the command, then its output and exit code), `file_change`
 * (apply_patch: the files and how each changed), `mcp_tool_call`, `web_search`, `error` — and
 * `turn.completed` (usage, summed), `turn.failed` and `error` (how it ended). Codex does not
 * number its model calls in the stream: a transcript turn is one step (a message or a tool
 * call), and the turns taken are counted at the proxy.
 */
import { isRecord } from '../../is-record.js';
import { countOf } from '../../providers/adapters/defaults.js';
import type { TranscriptEntry } from '../agent-run.js';
import { jsonLines } from '../../json-lines.js';
import { NO_USAGE, type ParsedStream, toolResult } from './transcript-entry.js';

function stringOf(value: unknown): string {
  return typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value);
}

/** A tool item as its call and its result; undefined for an item that is no tool. */
function toolItem(
  item: Record<string, unknown>,
): { tool: string; input: unknown; output: string; isError: boolean } | undefined {
  const status = stringOf(item['status']);
  switch (item['type']) {
    case 'command_execution': {
      const code = item['exit_code'];
      return {
        tool: 'exec_command',
        input: { command: item['command'] },
        output: stringOf(item['aggregated_output']),
        isError: status === 'failed' || (typeof code === 'number' && code !== 0),
      };
    }
    case 'file_change':
      return {
        tool: 'apply_patch',
        input: { changes: item['changes'] },
        output: status,
        isError: status === 'failed',
      };
    case 'mcp_tool_call':
      return {
        tool: `${stringOf(item['server'])}.${stringOf(item['tool'])}`,
        input: item['arguments'],
        output: stringOf(item['result'] ?? item['error']),
        isError: status === 'failed' || item['error'] !== undefined,
      };
    case 'web_search':
      return { tool: 'web_search', input: { query: item['query'] }, output: status, isError: false };
    default:
      return undefined;
  }
}

export function parseCodexStream(stdout: string): ParsedStream {
  const transcript: TranscriptEntry[] = [];
  const usage = { ...NO_USAGE };
  let turn = 0;
  let finalMessage = '';
  let completed = false;
  let failure: string | undefined;
  for (const event of jsonLines(stdout)) {
    const item = isRecord(event['item']) ? event['item'] : undefined;
    if (event['type'] === 'item.completed' && item !== undefined) {
      const id = stringOf(item['id']);
      if (item['type'] === 'agent_message') {
        turn += 1;
        finalMessage = stringOf(item['text']);
        transcript.push({ kind: 'assistant', turn, text: finalMessage });
      } else if (item['type'] === 'error') {
        transcript.push({ kind: 'error', turn, message: stringOf(item['message']) });
      } else {
        const tool = toolItem(item);
        if (tool === undefined) continue;
        turn += 1;
        transcript.push({ kind: 'tool_call', turn, id, tool: tool.tool, input: tool.input });
        transcript.push(toolResult(turn, id, tool.output, tool.isError));
      }
    } else if (event['type'] === 'turn.completed') {
      completed = true;
      const reported = isRecord(event['usage']) ? event['usage'] : {};
      // Like OpenAI's usage: the input count includes the cached part.
      usage.inputTokens += countOf(reported['input_tokens']);
      usage.outputTokens += countOf(reported['output_tokens']);
      usage.cacheReadTokens += countOf(reported['cached_input_tokens']);
      usage.cacheWriteTokens += countOf(reported['cache_write_input_tokens']);
    } else if (event['type'] === 'turn.failed') {
      const error = isRecord(event['error']) ? event['error'] : {};
      failure = stringOf(error['message'] ?? 'the turn failed');
      transcript.push({ kind: 'error', turn, message: failure });
    } else if (event['type'] === 'error' && typeof event['message'] === 'string') {
      failure ??= event['message'];
    }
  }
  const ended = failure !== undefined ? 'error' : completed ? 'done' : undefined;
  return {
    transcript,
    finalMessage,
    usage,
    ...(ended === undefined ? {} : { ended }),
    ...(failure === undefined ? {} : { error: failure }),
  };
}
