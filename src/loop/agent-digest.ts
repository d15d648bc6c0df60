/**
 * What the mutator is told about what an agent did in a failing train case (docs/agents.md "What
 * the mutator sees"): a short digest of the case's agent record — how it ended and after how many
 * turns, the tools it called with their counts, each call in order with its arguments in a line
 * and its error, the files it left, and which checks and expectations failed. Bounded: at most
 * DIGEST_CHARS per case and REQUEST_DIGEST_CHARS over one request, and what was cut is said in
 * `cut`. Pure: the records are read by src/loop/agent-records.ts, train cases only.
 */
import type { AgentCallRecord, AgentCaseRecord } from '../agent/agent-record.js';
import type { MutatorFeedback } from '../protocol/mutation.js';
import { countChars, cutText, toOneLine } from './text.js';

/** A case's digest is at most this many characters. */
export const DIGEST_CHARS = 1500;
/** The digests of one mutator request are at most this many characters together. */
export const REQUEST_DIGEST_CHARS = 6000;
/** Below this many characters left, a digest says too little to be worth sending. */
const MIN_DIGEST_CHARS = 200;
const ERROR_CHARS = 300;
const LINE_CHARS = 400;

/** What a digest is made from: the parts of agent.json it reads. */
export type AgentActivity = Pick<
  AgentCaseRecord,
  'sample' | 'endReason' | 'error' | 'turns' | 'tools' | 'calls' | 'callsOmitted' | 'files' | 'truncated'
>;

export type AgentDigest = NonNullable<MutatorFeedback['failing_cases'][number]['agent']>;

export interface Failed {
  checks: readonly string[];
  expectations: readonly string[];
}

export function digestAgentRun(
  activity: AgentActivity,
  failed: Failed,
  maxChars = DIGEST_CHARS,
): AgentDigest {
  const base = { sample: activity.sample, end_reason: activity.endReason, turns: activity.turns };
  if (maxChars < MIN_DIGEST_CHARS)
    return {
      ...base,
      digest: '',
      cut: `digest left out: this request's agent digests reached ${REQUEST_DIGEST_CHARS} characters`,
    };
  const head = [endLine(activity), toolsLine(activity), failedLine(failed), filesLine(activity)]
    .filter((line) => line !== '')
    .map((line) => cutText(line, LINE_CHARS));
  const calls = activity.calls ?? [];
  const lines = calls.map((call, index) => callLine(call, index + 1));
  const notes: string[] = [];
  if (activity.calls === undefined) notes.push('calls not listed: the record predates per-call records');
  if (activity.callsOmitted !== undefined)
    notes.push(`${activity.callsOmitted} calls after the first ${calls.length} were not recorded`);
  const headText = head.join('\n');
  const room = maxChars - countChars(headText) - 1;
  const shown = fitCalls(lines, room);
  if (shown.hidden > 0)
    notes.push(
      `${shown.hidden} of ${lines.length} calls not shown (at most ${maxChars} characters for this case)`,
    );
  let digest = shown.lines.length === 0 ? headText : `${headText}\n${shown.lines.join('\n')}`;
  if (countChars(digest) > maxChars) {
    digest = cutText(digest, maxChars);
    notes.push(`the digest was cut at ${maxChars} characters`);
  }
  return { ...base, digest, ...(notes.length === 0 ? {} : { cut: notes.join('; ') }) };
}

/**
 * Digests for a request's failing cases, worst first, within REQUEST_DIGEST_CHARS together: each
 * gets what is left, up to DIGEST_CHARS, so the worst cases are told in full.
 */
export function digestWithinRequest(
  cases: readonly { activity: AgentActivity | undefined; failed: Failed }[],
): (AgentDigest | undefined)[] {
  let left = REQUEST_DIGEST_CHARS;
  return cases.map(({ activity, failed }) => {
    if (activity === undefined) return undefined;
    const digest = digestAgentRun(activity, failed, Math.min(DIGEST_CHARS, left));
    left -= countChars(digest.digest);
    return digest;
  });
}

function endLine(a: AgentActivity): string {
  const how: Record<AgentActivity['endReason'], string> = {
    done: 'finished on its own',
    max_turns: 'stopped at the turn limit',
    timeout: 'stopped at the time limit',
    error: 'ended with an error',
  };
  const error = a.error === undefined ? '' : `; error: ${cutText(toOneLine(a.error), ERROR_CHARS)}`;
  return `end: ${a.endReason} (${how[a.endReason]}) after ${a.turns} turn${a.turns === 1 ? '' : 's'}${error}`;
}

function toolsLine(a: AgentActivity): string {
  const counts = Object.entries(a.tools);
  if (counts.length === 0) return 'tools: none called';
  const total = counts.reduce((sum, [, n]) => sum + n, 0);
  const errors = (a.calls ?? []).filter((c) => c.error !== undefined).length;
  const list = counts
    .sort(([x, m], [y, n]) => n - m || (x < y ? -1 : 1))
    .map(([name, n]) => `${name} ×${n}`)
    .join(', ');
  return `tools: ${list} (${total} call${total === 1 ? '' : 's'}${errors > 0 ? `, ${errors} with an error` : ''})`;
}

function failedLine(failed: Failed): string {
  const parts = [
    failed.checks.length > 0 ? `checks ${failed.checks.join(', ')}` : '',
    failed.expectations.length > 0
      ? `expectations ${failed.expectations.map((e) => JSON.stringify(cutText(e, 120))).join(', ')}`
      : '',
  ].filter((p) => p !== '');
  return parts.length === 0 ? '' : `failed: ${parts.join('; ')}`;
}

function filesLine(a: AgentActivity): string {
  const by = (status: string) => a.files.filter((f) => f.status === status).map((f) => f.path);
  const parts = (['created', 'changed', 'deleted'] as const)
    .map((status) => [status, by(status)] as const)
    .filter(([, paths]) => paths.length > 0)
    .map(([status, paths]) => `${status} ${paths.join(', ')}`);
  const more = a.truncated ? ' (the workspace had more entries than were compared)' : '';
  return `files: ${parts.length === 0 ? 'none created, changed or deleted' : parts.join('; ')}${more}`;
}

function callLine(call: AgentCallRecord, number: number): string {
  const args = call.args === '' ? '' : ` ${call.args}`;
  const error = call.error === undefined ? '' : ` → error: ${call.error}`;
  return `${number}. ${call.tool}${args}${error}`;
}

/**
 * As many call lines as fit in `room` characters (newlines counted), taken from both ends in
 * turn — how the agent started and how it ended both matter — with a line in the gap.
 */
function fitCalls(lines: readonly string[], room: number): { lines: string[]; hidden: number } {
  const total = lines.reduce((sum, line) => sum + countChars(line) + 1, 0);
  if (total <= room) return { lines: [...lines], hidden: 0 };
  const gapLine = (hidden: number) => `… ${hidden} more calls …`;
  let start = 0;
  let end = lines.length;
  const head: string[] = [];
  const tail: string[] = [];
  let used = countChars(gapLine(lines.length)) + 1;
  let fromStart = true;
  while (start < end) {
    const line = (fromStart ? lines[start] : lines[end - 1]) as string;
    const cost = countChars(line) + 1;
    if (used + cost > room) break;
    used += cost;
    if (fromStart) head.push(lines[start++] as string);
    else tail.unshift(lines[--end] as string);
    fromStart = !fromStart;
  }
  const hidden = end - start;
  return { lines: [...head, gapLine(hidden), ...tail], hidden };
}
