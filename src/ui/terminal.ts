/**
 * The only module that writes to the terminal. Everything else returns strings or emits
 * events; commands hand the text here. Colour is used only when the stream is a TTY and
 * NO_COLOR is unset (FORCE_COLOR forces it, for tests of coloured output).
 *
 * The status line (a run's current phase) is the one piece of text that is later taken back.
 * It is written without a newline, so the cursor stays on it, and cut to one screen line,
 * so erasing that line (`\r ESC[2K`) removes all of it. Every other write erases it first:
 * stdout and stderr share the screen, and each write is on it before the next one starts
 * (writes to a TTY are synchronous in Node), so rows on stdout never land beside it.
 *
 * Everything written passes through terminalText (visible-text.ts): text from outside (a judge's
 * stderr, a model's output) reaches the screen in many formatters, but only through here, so this
 * is where a control character in it is made visible. The product's own colour codes stay codes
 * when colour is on; its own cursor moves are `rewind` and the status line's erase, written here.
 */
import pc from 'picocolors';
import { cutVisible } from './fit-text.js';
import { terminalText } from '../visible-text.js';

export type Colors = ReturnType<typeof pc.createColors>;

export interface Terminal {
  /** Normal output (results, tables, JSON) on stdout. */
  out(text: string): void;
  /** Diagnostics (progress, warnings, errors) on stderr, so stdout stays machine-readable. */
  err(text: string): void;
  readonly colors: Colors;
  readonly isTTY: boolean;
  readonly errIsTTY: boolean;
  /** Columns available on stdout (read at each use, so a resized window counts); 100 when not a TTY. */
  readonly width: number;
  /**
   * Shows `text` as the transient status line on stderr, replacing the one shown before;
   * `''` erases it. Nothing at all when stderr is not a TTY: a log gets no escape codes.
   */
  status(text: string): void;
  /**
   * Takes back the last `lines` lines written to that stream (a redrawn frame, a passing phase
   * line): the cursor goes to the first of them and the screen is cleared from there. Nothing
   * when the stream is not a TTY.
   */
  rewind(lines: number, stream?: 'out' | 'err'): void;
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

/** Back to the start of the line, then erase the whole line. */
export const ERASE_LINE = '\r\x1b[2K';

export function createTerminal(
  stdout: Stream = process.stdout,
  stderr: Stream = process.stderr,
  onExit: (erase: () => void) => void = (erase) => process.once('exit', erase),
): Terminal {
  const colour = wantsColor(stdout);
  const colors = pc.createColors(colour);
  const shown = (text: string) => terminalText(text, colour);
  let statusShown = false;
  let exitHooked = false;
  const eraseStatus = () => {
    if (!statusShown) return;
    statusShown = false;
    stderr.write(ERASE_LINE);
  };
  return {
    out: (text) => {
      eraseStatus();
      stdout.write(shown(text.endsWith('\n') ? text : `${text}\n`));
    },
    err: (text) => {
      eraseStatus();
      stderr.write(shown(text.endsWith('\n') ? text : `${text}\n`));
    },
    status: (text) => {
      if (!stderr.isTTY) return;
      // Three columns spare: a line that fills the last column wraps on some terminals, and the
      // `^C` a terminal echoes on Ctrl-C lands after the line: were it to wrap, erasing one line
      // would leave the status line on the screen.
      const line = cutVisible(shown(text.replace(/\s*[\r\n]\s*/g, ' ')), (stderr.columns || 80) - 3);
      if (line === '') return eraseStatus();
      // An exit in the middle of a phase (process.exit on a second Ctrl-C, a crash) erases it too.
      if (!exitHooked) onExit(eraseStatus);
      exitHooked = true;
      stderr.write(`${ERASE_LINE}${line}`);
      statusShown = true;
    },
    rewind: (lines, stream = 'out') => {
      const target = stream === 'out' ? stdout : stderr;
      if (!target.isTTY || lines <= 0) return;
      eraseStatus();
      target.write(`\x1b[${lines}F\x1b[0J`);
    },
    colors,
    isTTY: Boolean(stdout.isTTY),
    errIsTTY: Boolean(stderr.isTTY),
    get width() {
      return stdout.isTTY && stdout.columns ? stdout.columns : 100;
    },
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
