/**
 * The one way this tool starts a program: `command` and `javascript` checks, the command and
 * CLI providers, the judge and the grader. An argv (never a shell), an exact environment,
 * optional stdin, a deadline and the caller's abort. Nothing is thrown: a program that exits
 * non-zero, is killed, times out or cannot start is described by the same result.
 *
 * The program leads its own process group. A timeout or an abort sends the group SIGTERM, then
 * SIGKILL; when the program exits, whatever it left running in its group is killed with it. A
 * grandchild that escaped the group may still hold the output pipes open: the result is then
 * taken shortly after the program's exit instead of waiting for them.
 */
import { execa } from 'execa';
import { killGroup, OWN_GROUP, trackGroup, untrackGroup } from './process-group.js';

export interface ProcessRun {
  file: string;
  args: readonly string[];
  cwd: string;
  /** The whole environment the program sees; nothing of ours is added. */
  env: NodeJS.ProcessEnv;
  /**
   * Text for stdin; absent, the program gets no stdin. A promise starts the program at once but
   * holds its stdin, and the deadline, until it settles (a warm start); rejected, the program
   * is stopped and the result says aborted.
   */
  input?: string | Promise<string>;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  /** Open file descriptor 3 as a pipe and return what the program writes there. */
  resultPipe?: boolean;
  /** Descriptors after stdio, from 3 on, in order (not with `resultPipe`): see ExtraFd. */
  extraFds?: readonly ExtraFd[];
}

/**
 * A descriptor the program gets besides stdio. `lifeline`: a pipe this process holds open, unread,
 * until the program exits; it closes when this process dies however it dies, so a program
 * watching it learns at once that its runner is gone. `input`: text the program reads there to
 * its end (bubblewrap's `--args`), never on its command line.
 */
export type ExtraFd = { kind: 'lifeline' } | { kind: 'input'; text: string };

export interface ProcessResult {
  /** null when the program was killed by a signal or never started. */
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  aborted: boolean;
  stdout: string;
  stderr: string;
  /** What the program wrote to descriptor 3, when `resultPipe` asked for it. */
  resultPipe?: string;
  /** Why the program could not be started (`code` is e.g. ENOENT or EACCES). */
  startError?: { code: string | undefined; message: string };
}

/** Between SIGTERM and SIGKILL: time for a program to clean up after itself. */
const FORCE_KILL_AFTER_MS = 500;
/** After the program's exit: how long its output pipes may stay open before they are closed. */
const PIPE_GRACE_MS = 200;
/** Output beyond this is not kept (the program is stopped, as execa does). */
const MAX_OUTPUT = 64 * 1024 * 1024;

function notStarted(aborted: boolean, startError?: ProcessResult['startError']): ProcessResult {
  return {
    exitCode: null,
    signal: null,
    timedOut: false,
    aborted,
    stdout: '',
    stderr: '',
    ...(startError === undefined ? {} : { startError }),
  };
}

function textOf(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function errnoOf(error: unknown): string | undefined {
  const cause = (error as { cause?: { code?: unknown } }).cause;
  const code = (error as { code?: unknown }).code ?? cause?.code;
  return typeof code === 'string' ? code : undefined;
}

function extraStdio(run: ProcessRun): ('pipe' | Uint8Array)[] {
  if (run.resultPipe) return ['pipe'];
  return (run.extraFds ?? []).map((fd) =>
    fd.kind === 'lifeline' ? 'pipe' : new TextEncoder().encode(fd.text),
  );
}

export async function runProcess(run: ProcessRun): Promise<ProcessResult> {
  if (run.signal?.aborted) return notStarted(true);
  const stdin = run.input === undefined ? 'ignore' : 'pipe';
  const subprocess = execa(run.file, [...run.args], {
    cwd: run.cwd,
    env: run.env,
    extendEnv: false,
    detached: OWN_GROUP,
    reject: false,
    stdio: [stdin, 'pipe', 'pipe', ...extraStdio(run)],
    ...(typeof run.input === 'string' ? { input: run.input } : {}),
    maxBuffer: MAX_OUTPUT,
    windowsHide: true,
  });
  const pid = subprocess.pid;
  if (pid !== undefined) trackGroup(pid);

  let timedOut = false;
  let aborted = false;
  let exited = false;
  const timers: NodeJS.Timeout[] = [];
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    killGroup(pid, 'SIGTERM');
    timers.push(setTimeout(() => killGroup(pid, 'SIGKILL'), FORCE_KILL_AFTER_MS));
  };
  const startDeadline = () => {
    timers.push(
      setTimeout(() => {
        // Exited in time: pipes a grandchild holds do not make it late.
        if (exited) return;
        timedOut = true;
        stop();
      }, run.timeoutMs),
    );
  };
  const onAbort = () => {
    aborted = true;
    stop();
  };
  run.signal?.addEventListener('abort', onAbort, { once: true });

  subprocess.once('exit', () => {
    exited = true;
    // Whatever the program left running in its group goes with it.
    killGroup(pid, 'SIGKILL');
    // A grandchild outside the group may hold the pipes: stop waiting for them.
    timers.push(
      setTimeout(() => {
        for (const stream of subprocess.stdio) stream?.destroy();
      }, PIPE_GRACE_MS),
    );
  });

  let settled = false;
  if (typeof run.input === 'object') {
    // A program that never reads its stdin must not fail the run with EPIPE.
    subprocess.stdin?.on('error', () => {});
    run.input.then(
      (text) => {
        if (settled) return;
        subprocess.stdin?.end(text);
        startDeadline();
      },
      () => {
        aborted = true;
        stop();
      },
    );
  } else {
    startDeadline();
  }

  try {
    const result = await subprocess;
    if (pid === undefined) {
      return notStarted(aborted, { code: errnoOf(result), message: result.shortMessage ?? 'not started' });
    }
    return {
      exitCode: result.exitCode ?? null,
      signal: result.signal ?? null,
      timedOut,
      aborted,
      stdout: textOf(result.stdout),
      stderr: textOf(result.stderr),
      ...(run.resultPipe ? { resultPipe: textOf(result.stdio[3]) } : {}),
    };
  } finally {
    settled = true;
    for (const timer of timers) clearTimeout(timer);
    run.signal?.removeEventListener('abort', onAbort);
    if (pid !== undefined) untrackGroup(pid);
  }
}
