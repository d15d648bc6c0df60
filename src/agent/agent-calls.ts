/**
 * An agent's tool calls as the record keeps them (agent.json `calls`): each call in order, its
 * arguments in one short line and, when its result was an error, that error's first words. The
 * transcript.md holds everything; this is what a digest of the case (src/loop/agent-digest.ts) can
 * afford to read.
 */
import { isRecord } from '../is-record.js';
import type { TranscriptEntry } from './agent-run.js';
import type { AgentCallRecord } from './agent-record.js';
import { cutText, toOneLine } from '../loop/text.js';

/** A call's arguments in its record are cut to this many characters. */
export const CALL_ARGS_CHARS = 160;
/** A tool error in its record is cut to this many characters. */
export const CALL_ERROR_CHARS = 200;
/** The record keeps this many calls at most, the first ones. */
export const MAX_RECORDED_CALLS = 200;

/** The argument keys that say most about a call, in the order they are shown. */
const TELLING_KEYS = [
  'file_path',
  'path',
  'notebook_path',
  'command',
  'cmd',
  'pattern',
  'glob',
  'query',
  'url',
  'skill',
  'description',
];

export function recordedCalls(transcript: readonly TranscriptEntry[]): {
  calls: AgentCallRecord[];
  omitted: number;
} {
  const errors = new Map<string, string>();
  for (const entry of transcript)
    if (entry.kind === 'tool_result' && entry.isError) errors.set(entry.id, toOneLine(entry.content));
  const calls: AgentCallRecord[] = [];
  let omitted = 0;
  for (const entry of transcript) {
    if (entry.kind !== 'tool_call') continue;
    if (calls.length >= MAX_RECORDED_CALLS) {
      omitted++;
      continue;
    }
    const error = errors.get(entry.id);
    calls.push({
      tool: entry.tool,
      args: cutText(argsLine(entry.input), CALL_ARGS_CHARS),
      ...(error === undefined ? {} : { error: cutText(error || 'error', CALL_ERROR_CHARS) }),
    });
  }
  return { calls, omitted };
}

/**
 * The telling arguments by name (a path, a command), or the whole input as JSON when it has none;
 * apply_patch's changes as their paths. Contents (a file's new text) are never shown whole.
 */
export function argsLine(input: unknown): string {
  if (typeof input === 'string') return toOneLine(input);
  if (!isRecord(input)) return input === undefined ? '' : toOneLine(JSON.stringify(input));
  const changes = input['changes'];
  if (Array.isArray(changes))
    return changes
      .map((c) => (isRecord(c) ? `${String(c['kind'] ?? '')} ${String(c['path'] ?? '')}`.trim() : ''))
      .filter((c) => c !== '')
      .join(', ');
  const telling = TELLING_KEYS.filter((key) => input[key] !== undefined).map((key) => {
    const value = input[key];
    const text = Array.isArray(value) ? value.map(String).join(' ') : String(value);
    return key === 'file_path' || key === 'path' || key === 'command' ? text : `${key}=${text}`;
  });
  if (telling.length > 0) return toOneLine(telling.join(' '));
  return toOneLine(JSON.stringify(input));
}
