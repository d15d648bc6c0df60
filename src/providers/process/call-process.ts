/**
 * One CLI or command provider call as a process (src/process/run-process.ts): argv list, the
 * prompt on stdin, a per-call timeout and the caller's abort (Ctrl-C frees everything within
 * a second), in a fresh temporary folder unless a cwd is given. Timeouts, aborts and programs
 * that cannot start become ProviderErrors; a non-zero exit is returned, since each adapter
 * reads it its own way.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { runProcess } from '../../process/run-process.js';
import { tempRoot } from '../../temp-root.js';
import { clip, redactSecrets } from '../redact.js';
import { ProviderError } from '../types.js';

export interface ProcessCall {
  file: string;
  args: readonly string[];
  input: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  signal: AbortSignal | undefined;
  label: string;
  /** Working directory; absent: a fresh temporary folder, removed afterwards. */
  cwd?: string;
  /** Said when the binary cannot be found. */
  notFoundHint?: string;
}

export interface ProcessOutcome {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** The last few non-empty lines, with any API key in the environment scrubbed. */
export function tailOf(text: string, env: NodeJS.ProcessEnv, lines = 5): string {
  const tail = text
    .split(/\r?\n/)
    .map((line) => line.trimEnd())
    .filter((line) => line !== '')
    .slice(-lines)
    .join(' | ');
  return clip(redactSecrets(tail, [env['ANTHROPIC_API_KEY'], env['OPENAI_API_KEY']]), 600);
}

export function processFailure(
  label: string,
  outcome: ProcessOutcome,
  env: NodeJS.ProcessEnv,
): ProviderError {
  const tail = tailOf(outcome.stderr, env);
  return new ProviderError(
    'process',
    `${label} exited with code ${outcome.exitCode}${tail === '' ? ' and printed nothing on stderr' : `: ${tail}`}`,
  );
}

export async function callProcess(call: ProcessCall): Promise<ProcessOutcome> {
  const aborted = () => new ProviderError('aborted', `${call.label}: call aborted`);
  if (call.signal?.aborted) throw aborted();
  const cwd = call.cwd ?? (await mkdtemp(join(await tempRoot(), 'call-')));
  const tempDir = call.cwd === undefined ? cwd : undefined;
  try {
    const result = await runProcess({
      file: call.file,
      args: call.args,
      cwd,
      env: call.env,
      input: call.input,
      timeoutMs: call.timeoutMs,
      signal: call.signal,
    });
    if (result.aborted || call.signal?.aborted) throw aborted();
    if (result.timedOut) {
      throw new ProviderError(
        'timeout',
        `${call.label}: no answer within ${call.timeoutMs / 1000} s (process killed)`,
      );
    }
    if (result.startError !== undefined) {
      const { code, message } = result.startError;
      const what =
        code === 'ENOENT'
          ? 'was not found'
          : code === 'EACCES'
            ? 'is not executable'
            : `could not start (${message})`;
      const hint = code === 'ENOENT' || code === 'EACCES' ? call.notFoundHint : undefined;
      throw new ProviderError(
        'process',
        `${call.label}: \`${call.file}\` ${what}${hint === undefined ? '' : `; ${hint}`}`,
      );
    }
    if (result.exitCode === null) {
      throw new ProviderError(
        'process',
        `${call.label}: the process ended by signal ${result.signal ?? 'unknown'}`,
      );
    }
    return { stdout: result.stdout, stderr: result.stderr, exitCode: result.exitCode };
  } finally {
    if (tempDir !== undefined) await rm(tempDir, { recursive: true, force: true });
  }
}
