/**
 * The only module that writes to the terminal. Everything else returns strings or emits
 * events; commands hand the text here. Colour is used only when the stream is a TTY and
 * NO_COLOR is unset (FORCE_COLOR forces it, for tests of coloured output).
 */
import pc from 'picocolors';

export type Colors = ReturnType<typeof pc.createColors>;

export interface Terminal {
  /** Normal output (results, tables, JSON) on stdout. */
  out(text: string): void;
  /** Diagnostics (progress, warnings, errors) on stderr, so stdout stays machine-readable. */
  err(text: string): void;
  readonly colors: Colors;
  readonly isTTY: boolean;
  readonly errIsTTY: boolean;
  /** Columns available on stdout; 100 when not a TTY. */
  readonly width: number;
}

interface Stream {
  write(chunk: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export function wantsColor(stream: Stream, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env['NO_COLOR'] !== undefined && env['NO_COLOR'] !== '') return false;
  if (env['FORCE_COLOR'] !== undefined && env['FORCE_COLOR'] !== '0') return true;
  return Boolean(stream.isTTY);
}

export function createTerminal(stdout: Stream = process.stdout, stderr: Stream = process.stderr): Terminal {
  const colors = pc.createColors(wantsColor(stdout));
  return {
    out: (text) => {
      stdout.write(text.endsWith('\n') ? text : `${text}\n`);
    },
    err: (text) => {
      stderr.write(text.endsWith('\n') ? text : `${text}\n`);
    },
    colors,
    isTTY: Boolean(stdout.isTTY),
    errIsTTY: Boolean(stderr.isTTY),
    width: stdout.isTTY && stdout.columns ? stdout.columns : 100,
  };
}

let current: Terminal | undefined;

/** The process-wide terminal; tests may swap it with `setTerminal`. */
export function terminal(): Terminal {
  current ??= createTerminal();
  return current;
}

export function setTerminal(next: Terminal | undefined): void {
  current = next;
}

/** Resolves once everything written to stdout and stderr so far has been handed to the OS. */
export function flushProcessOutput(): Promise<void> {
  const flush = (stream: NodeJS.WriteStream) =>
    new Promise<void>((resolve) => {
      if (stream.destroyed || !stream.writable) resolve();
      // Writes complete in order, so the callback of an empty write means all earlier ones are out.
      else stream.write('', () => resolve());
    });
  return Promise.all([flush(process.stdout), flush(process.stderr)]).then(() => undefined);
}
