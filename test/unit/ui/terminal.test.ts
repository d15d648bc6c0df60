import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTerminal, ERASE_LINE } from '../../../src/ui/terminal.js';

function stream(isTTY: boolean, columns = 40) {
  const chunks: string[] = [];
  return { chunks, isTTY, columns, write: (chunk: string) => chunks.push(chunk) };
}

describe('the status line', () => {
  it('is written without a newline and erased (not followed by one) before the next write', () => {
    const stdout = stream(true);
    const stderr = stream(true);
    const term = createTerminal(stdout, stderr, () => undefined);
    term.status('  … iteration 1: generating');
    term.status('  … iteration 1: judging');
    term.out('   1  keep');
    term.status('  … iteration 2: generating');
    term.err('warning: slow');
    expect(stderr.chunks).toEqual([
      `${ERASE_LINE}  … iteration 1: generating`,
      `${ERASE_LINE}  … iteration 1: judging`,
      ERASE_LINE,
      `${ERASE_LINE}  … iteration 2: generating`,
      ERASE_LINE,
      'warning: slow\n',
    ]);
    expect(stdout.chunks).toEqual(['   1  keep\n']);
    expect(stderr.chunks.join('')).not.toContain('\u001b[1A');
  });

  it('is cut to one screen line with room for an echoed ^C, so erasing one line removes all of it', () => {
    const stderr = stream(true, 20);
    const term = createTerminal(stream(true), stderr, () => undefined);
    term.status(`  … iteration 12: ${'judging '.repeat(10)}`);
    const shown = (stderr.chunks[0] ?? '').slice(ERASE_LINE.length);
    expect(Array.from(shown)).toHaveLength(17);
    expect(shown.endsWith('…')).toBe(true);
  });

  it('is erased when the process exits while it shows, and only then', () => {
    const stderr = stream(true);
    let atExit: (() => void) | undefined;
    const term = createTerminal(stream(true), stderr, (erase) => {
      atExit = erase;
    });
    term.status('  … iteration 3: grading');
    atExit?.();
    expect(stderr.chunks.at(-1)).toBe(ERASE_LINE);
    atExit?.();
    expect(stderr.chunks).toHaveLength(2);
  });

  it('writes nothing at all when stderr is not a terminal', () => {
    const stderr = stream(false);
    const term = createTerminal(stream(false), stderr, () => undefined);
    term.status('  … iteration 1: generating');
    term.err('warning: slow');
    expect(stderr.chunks).toEqual(['warning: slow\n']);
  });
});

describe('what reaches the screen', () => {
  const TITLE = '\u001b]0;pwned\u0007';
  const CLIPBOARD = '\u001b]52;c;cm0gLXJmIH4=\u0007';

  it('shows the escape codes of external text instead of obeying them, on both streams', () => {
    const stdout = stream(false);
    const stderr = stream(false);
    const term = createTerminal(stdout, stderr, () => undefined);
    term.out(`output ${TITLE}\u001b[2J`);
    term.err(`judge said ${CLIPBOARD}`);
    expect(stdout.chunks).toEqual(['output \\u001b]0;pwned\\u0007\\u001b[2J\n']);
    expect(stderr.chunks).toEqual(['judge said \\u001b]52;c;cm0gLXJmIH4=\\u0007\n']);
  });

  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('keeps the product’s colours on a colour terminal, and the status line safe too', () => {
    vi.stubEnv('NO_COLOR', '');
    const stdout = stream(true);
    const stderr = stream(true, 100);
    const term = createTerminal(stdout, stderr, () => undefined);
    term.out(`${term.colors.green('keep')} ${TITLE}`);
    term.status(`  … judging ${CLIPBOARD}`);
    expect(stdout.chunks).toEqual(['\u001b[32mkeep\u001b[39m \\u001b]0;pwned\\u0007\n']);
    expect(stderr.chunks).toEqual([`${ERASE_LINE}  … judging \\u001b]52;c;cm0gLXJmIH4=\\u0007`]);
  });

  it('rewinds lines only on a TTY', () => {
    const tty = stream(true);
    const pipe = stream(false);
    const term = createTerminal(tty, pipe, () => undefined);
    term.rewind(3);
    term.rewind(1, 'err');
    expect(tty.chunks).toEqual(['\u001b[3F\u001b[0J']);
    expect(pipe.chunks).toEqual([]);
  });
});
