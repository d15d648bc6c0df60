/**
 * Runs one CLI or command provider subprocess: argv list (never a shell), prompt on stdin,
 * a per-call timeout, and the caller's abort signal, which kills the process (SIGTERM, then
 * SIGKILL after half a second) so Ctrl-C frees everything within a second. Non-zero exits
 * are returned, not thrown: each adapter reads them its own way.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { tempRoot } from '../../temp-root.js';
import { clip, redactSecrets } from '../redact.js';
import { ProviderError } from '../types.js';

export interface ProcessRun {
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

const FORCE_KILL_AFTER_MS = 500;

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

function errnoOf(error: unknown): string | undefined {
  const cause = (error as { cause?: { code?: unknown } }).cause;
  const code = (error as { code?: unknown }).code ?? cause?.code;
  return typeof code === 'string' ? code : undefined;
}

export async function runProcess(run: ProcessRun): Promise<ProcessOutcome> {
  if (run.signal?.aborted) throw new ProviderError('aborted', `${run.label}: call aborted`);
  const tempDir = run.cwd === undefined ? await mkdtemp(join(await tempRoot(), 'call-')) : undefined;
  try {
    const result = await execa(run.file, [...run.args], {
      input: run.input,
      cwd: run.cwd ?? tempDir,
      env: run.env,
      extendEnv: false,
      reject: false,
      timeout: run.timeoutMs,
      forceKillAfterDelay: FORCE_KILL_AFTER_MS,
      maxBuffer: 64 * 1024 * 1024,
      windowsHide: true,
      ...(run.signal === undefined ? {} : { cancelSignal: run.signal }),
    });
    if (result.isCanceled || run.signal?.aborted) {
      throw new ProviderError('aborted', `${run.label}: call aborted`);
    }
    if (result.timedOut) {
      throw new ProviderError(
        'timeout',
        `${run.label}: no answer within ${run.timeoutMs / 1000} s (process killed)`,
      );
    }
    const errno = errnoOf(result);
    if (errno === 'ENOENT' || errno === 'EACCES') {
      const what = errno === 'ENOENT' ? 'was not found' : 'is not executable';
      throw new ProviderError(
        'process',
        `${run.label}: \`${run.file}\` ${what}${run.notFoundHint === undefined ? '' : `; ${run.notFoundHint}`}`,
      );
    }
    const stdout = typeof result.stdout === 'string' ? result.stdout : '';
    const stderr = typeof result.stderr === 'string' ? result.stderr : '';
    if (result.exitCode === undefined) {
      throw new ProviderError(
        'process',
        `${run.label}: the process ended by signal ${result.signal ?? 'unknown'}`,
      );
    }
    return { stdout, stderr, exitCode: result.exitCode };
  } finally {
    if (tempDir !== undefined) await rm(tempDir, { recursive: true, force: true });
  }
}
