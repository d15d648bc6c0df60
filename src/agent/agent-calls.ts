/**
 * An agent's tool calls as the record keeps them (agent.json `calls`): each call in order, its
 * arguments in one short line and, when its result was an error, that error's first words. The
 * transcript.md holds everything, and tool-calls.json every argument for the checks
 * (agent-tool-calls.ts, whose pairing of calls and errors this reads); this is what a digest of the
 * case (src/loop/agent-digest.ts) can afford to read.
 */
import { isRecord } from '../is-record.js';
import type { TranscriptEntry } from './agent-run.js';
import type { AgentCallRecord } from './agent-record.js';
import { pairToolCalls } from './agent-tool-calls.js';
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
  const calls: AgentCallRecord[] = [];
  let omitted = 0;
  for (const { call, error } of pairToolCalls(transcript)) {
    if (calls.length >= MAX_RECORDED_CALLS) {
      omitted++;
      continue;
    }
    calls.push({
      tool: call.tool,
      args: cutText(argsLine(call.input), CALL_ARGS_CHARS),
      ...(error === undefined ? {} : { error: cutText(toOneLine(error) || 'error', CALL_ERROR_CHARS) }),
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
