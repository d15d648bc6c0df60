/**
 * Runs a judge or grader program: argv (never a shell), a cwd, an exact environment, optional
 * stdin, a timeout and the caller's abort. The program leads its own process group so a kill
 * reaches anything it started; leftovers are killed when it exits. Failures are data.
 */
import { spawn } from 'node:child_process';

export interface SandboxedRun {
  argv: readonly string[];
  cwd: string;
  env: Record<string, string>;
  input?: string;
  /**
   * Start the program now but hold its stdin until this settles: resolved, the text is written
   * and the timeout starts counting; rejected, the program is stopped. (A warm start: the
   * program loads while its caller is still preparing the input.) Replaces `input`.
   */
  inputGate?: Promise<string>;
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface SandboxedOutcome {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  aborted: boolean;
  /** The last part of each stream (at most OUTPUT_LIMIT characters). */
  stdout: string;
  stderr: string;
  /** Set when the program could not be started at all. */
  spawnError?: string;
}

const OUTPUT_LIMIT = 256 * 1024;
const FORCE_KILL_AFTER_MS = 500;
const isWindows = process.platform === 'win32';

function keepTail(current: string, chunk: string): string {
  const next = current + chunk;
  return next.length > OUTPUT_LIMIT ? next.slice(next.length - OUTPUT_LIMIT) : next;
}

function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(isWindows ? pid : -pid, signal);
  } catch {
    // already gone
  }
}

export function spawnSandboxed(run: SandboxedRun): Promise<SandboxedOutcome> {
  const [file, ...args] = run.argv;
  if (file === undefined) {
    return Promise.resolve({
      exitCode: null,
      signal: null,
      timedOut: false,
      aborted: false,
      stdout: '',
      stderr: '',
      spawnError: 'no program given',
    });
  }
  return new Promise((resolve) => {
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    let aborted = run.signal?.aborted === true;
    let spawnError: string | undefined;
    let exitCode: number | null = null;
    let exitSignal: string | null = null;
    let forceTimer: NodeJS.Timeout | undefined;

    const child = spawn(file, args, {
      cwd: run.cwd,
      env: run.env,
      detached: !isWindows,
      stdio: [run.input === undefined && run.inputGate === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      windowsHide: true,
    });

    const stop = () => {
      killGroup(child.pid, 'SIGTERM');
      forceTimer ??= setTimeout(() => killGroup(child.pid, 'SIGKILL'), FORCE_KILL_AFTER_MS);
    };
    let timer: NodeJS.Timeout | undefined;
    const startTimer = () => {
      timer = setTimeout(() => {
        timedOut = true;
        stop();
      }, run.timeoutMs);
    };
    const onAbort = () => {
      aborted = true;
      stop();
    };
    run.signal?.addEventListener('abort', onAbort, { once: true });
    if (aborted) stop();

    let settled = false;
    function finish(): void {
      if (settled) return;
      settled = true;
      if (timer !== undefined) clearTimeout(timer);
      if (forceTimer !== undefined) clearTimeout(forceTimer);
      run.signal?.removeEventListener('abort', onAbort);
      resolve({
        exitCode,
        signal: exitSignal,
        timedOut,
        aborted,
        stdout,
        stderr,
        ...(spawnError === undefined ? {} : { spawnError }),
      });
    }

    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      stdout = keepTail(stdout, chunk);
    });
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      stderr = keepTail(stderr, chunk);
    });
    const stdin = child.stdin;
    if (stdin !== null) {
      // A program that never reads its stdin must not crash the runner with EPIPE.
      stdin.on('error', () => {});
      if (run.inputGate === undefined) stdin.end(run.input);
    }
    if (run.inputGate === undefined) startTimer();
    else {
      run.inputGate.then(
        (input) => {
          if (settled) return;
          stdin?.end(input);
          startTimer();
        },
        () => {
          aborted = true;
          stop();
        },
      );
    }
    child.on('error', (error) => {
      spawnError = error.message;
      // A program that never started emits no 'close' on every platform.
      if (child.pid === undefined) finish();
    });
    child.on('exit', (code, signal) => {
      exitCode = code;
      exitSignal = signal;
      // Whatever the program left running in its group goes with it.
      killGroup(child.pid, 'SIGKILL');
    });
    child.on('close', finish);
  });
}
