/** Why one judge or grader attempt produced nothing usable, in words for the run record. */
import { clip, redactSecrets } from '../providers/redact.js';
import { textTail } from './cli-agent-failure.js';
import { ProviderError } from '../providers/types.js';
import type { ProcessResult } from '../process/run-process.js';

/**
 * What a failed program said, secrets scrubbed: its last lines on stderr, or on stdout when it
 * printed nothing on stderr (both the claude and codex CLIs print their errors there).
 */
export function excerptOf(outcome: ProcessResult, secrets: readonly (string | undefined)[]): string {
  const stderr = textTail(outcome.stderr);
  return clip(redactSecrets(stderr === '' ? textTail(outcome.stdout, true) : stderr, secrets));
}

/**
 * The process-level failure of an attempt, or undefined when it exited 0 in time; `said` is why
 * the program says it failed (excerptOf, or what a CLI agent reported).
 */
export function describeProcessFailure(
  outcome: ProcessResult,
  who: string,
  timeoutMs: number,
  said = '',
): string | undefined {
  if (outcome.startError !== undefined)
    return `the ${who} program could not be started (${outcome.startError.message})`;
  if (outcome.aborted) return `the ${who} was interrupted`;
  if (outcome.timedOut)
    return `the ${who} did not finish within ${Math.round(timeoutMs / 1000)} s and was killed`;
  if (outcome.exitCode !== 0) {
    const how =
      outcome.exitCode === null
        ? `was killed by ${outcome.signal ?? 'a signal'}`
        : `exited with code ${outcome.exitCode}`;
    return `the ${who} ${how}${said === '' ? '' : `: ${said}`}`;
  }
  return undefined;
}

/**
 * A model failure that must not be retried by running the program again: credit and auth
 * stop the run; an abort means the user is stopping it.
 */
export function findFinalProviderError(failures: readonly unknown[]): ProviderError | undefined {
  return failures.find(
    (f): f is ProviderError => f instanceof ProviderError && (f.stopsRun || f.kind === 'aborted'),
  );
}

export function parseJsonText(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}
