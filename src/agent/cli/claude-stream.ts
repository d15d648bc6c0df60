/**
 * Claude Code's `--output-format stream-json --verbose` as a transcript: `assistant` events
 * (one per content block, a turn per API message id) give text and `tool_use` calls, `user`
 * events give the `tool_result` blocks, and the closing `result` object gives the turns
 * (`num_turns`), usage, `total_cost_usd`, the final text and how it ended (`subtype`:
 * `success`, `error_max_turns`, `error_during_execution`; `is_error` for an API failure).
 */
import { isRecord } from '../../is-record.js';
import { anthropicUsage } from '../../providers/adapters/usage.js';
import type { TranscriptEntry } from '../agent-run.js';
import { jsonLines } from '../../json-lines.js';
import { NO_USAGE, type ParsedStream, toolResult } from './transcript-entry.js';

function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return content === undefined ? '' : JSON.stringify(content);
  return content
    .map((part) => (isRecord(part) && typeof part['text'] === 'string' ? part['text'] : JSON.stringify(part)))
    .join('\n');
}

export function parseClaudeStream(stdout: string): ParsedStream {
  const transcript: TranscriptEntry[] = [];
  const messageIds: string[] = [];
  let turn = 0;
  let lastText = '';
  let parsed: Omit<ParsedStream, 'transcript' | 'finalMessage'> = { usage: { ...NO_USAGE } };
  let finalMessage: string | undefined;
  for (const event of jsonLines(stdout)) {
    const message = isRecord(event['message']) ? event['message'] : undefined;
    const content = Array.isArray(message?.['content']) ? message['content'] : [];
    if (event['type'] === 'assistant' && message !== undefined) {
      const id = typeof message['id'] === 'string' ? message['id'] : `turn-${messageIds.length}`;
      if (!messageIds.includes(id)) {
        messageIds.push(id);
        turn += 1;
      }
      for (const block of content) {
        if (!isRecord(block)) continue;
        if (block['type'] === 'text' && typeof block['text'] === 'string') {
          const text = block['text'];
          if (event['is_api_error_message'] === true) transcript.push({ kind: 'error', turn, message: text });
          else {
            transcript.push({ kind: 'assistant', turn, text });
            lastText = text;
          }
        } else if (block['type'] === 'tool_use') {
          transcript.push({
            kind: 'tool_call',
            turn,
            id: String(block['id'] ?? ''),
            tool: String(block['name'] ?? ''),
            input: block['input'],
          });
        }
      }
    } else if (event['type'] === 'user') {
      for (const block of content) {
        if (!isRecord(block) || block['type'] !== 'tool_result') continue;
        const id = String(block['tool_use_id'] ?? '');
        transcript.push(toolResult(turn, id, resultText(block['content']), block['is_error'] === true));
      }
    } else if (event['type'] === 'result') {
      const subtype = typeof event['subtype'] === 'string' ? event['subtype'] : 'success';
      const said = typeof event['result'] === 'string' ? event['result'] : undefined;
      const cost = event['total_cost_usd'];
      const usage = isRecord(event['usage']) ? anthropicUsage(event['usage']) : undefined;
      const failed = event['is_error'] === true || subtype !== 'success';
      parsed = {
        ...(typeof event['num_turns'] === 'number' ? { turns: event['num_turns'] } : {}),
        usage:
          usage === undefined
            ? { ...NO_USAGE }
            : {
                inputTokens: usage.inputTokens,
                outputTokens: usage.outputTokens,
                cacheReadTokens: usage.cacheReadTokens ?? 0,
                cacheWriteTokens: usage.cacheWriteTokens ?? 0,
              },
        ...(typeof cost === 'number' ? { reportedCostUsd: cost } : {}),
        ended: subtype === 'error_max_turns' ? 'max_turns' : failed ? 'error' : 'done',
        ...(failed && subtype !== 'error_max_turns' ? { error: said ?? subtype } : {}),
      };
      if (!failed && said !== undefined) finalMessage = said;
    }
  }
  return { ...parsed, turns: parsed.turns ?? turn, transcript, finalMessage: finalMessage ?? lastText };
}
