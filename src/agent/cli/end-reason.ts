/**
 * Why an agent case ended (docs/design/agent-runs.md), from what the process did, what the
 * proxy saw and what the CLI's stream said, in this order: past its wall clock it is `timeout`
 * (the group was killed, whatever it printed); stopped by a sandbox limit, unable to start, it is
 * `error`; refused a call past max_turns at the proxy (Codex), or saying it stopped at its turn
 * limit (Claude Code's `error_max_turns`), it is `max_turns`; a stream that ended well and a
 * clean exit are `done`; anything else is `error`, in the CLI's words when it gave some.
 */
import type { ProcessResult } from '../../process/run-process.js';
import type { AgentEndReason } from '../agent-run.js';
import type { ParsedStream } from './transcript-entry.js';

export interface EndFacts {
  process: Pick<ProcessResult, 'exitCode' | 'signal' | 'timedOut' | 'stderr' | 'startError'>;
  timeoutMs: number;
  /** The proxy refused a call past the turn limit. */
  limitReached: boolean;
  /** A sandbox limit stopped the program (disk-cap.ts). */
  overLimit?: string;
  parsed: Pick<ParsedStream, 'ended' | 'error'>;
}

function lastLine(text: string): string {
  return (
    text
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter((line) => line !== '')
      .at(-1) ?? ''
  );
}

export function decideEndReason(facts: EndFacts): { endReason: AgentEndReason; error?: string } {
  const { process: run, parsed } = facts;
  if (run.timedOut) {
    return {
      endReason: 'timeout',
      error: `the agent was still running after ${Math.round(facts.timeoutMs / 1000)} s and was stopped`,
    };
  }
  if (facts.overLimit !== undefined) return { endReason: 'error', error: `the agent ${facts.overLimit}` };
  if (run.startError !== undefined) {
    return { endReason: 'error', error: `the agent could not start: ${run.startError.message}` };
  }
  if (facts.limitReached || parsed.ended === 'max_turns') return { endReason: 'max_turns' };
  if (parsed.ended === 'done' && run.exitCode === 0) return { endReason: 'done' };
  if (parsed.error !== undefined) return { endReason: 'error', error: parsed.error };
  const how =
    run.exitCode === null ? `was killed (${run.signal ?? 'signal'})` : `exited with code ${run.exitCode}`;
  const said = lastLine(run.stderr);
  return { endReason: 'error', error: `the agent ${how}${said === '' ? '' : `: ${said}`}` };
}
