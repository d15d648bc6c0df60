/**
 * What a person actually sees: the built CLI runs in a real pseudo-terminal (tmux, on a
 * private server) and the test reads the rendered screen with `capture-pane`, not the bytes.
 * Escape sequences that leave blank lines, a status line that outlives the run, and lines
 * the terminal wraps mid-word only show up here. Needs `npm run build` and tmux (.ci/run
 * installs Debian's).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv } from '../helpers/built-cli.js';
import { POOL_RUN_ID, writePoolRun } from '../helpers/fixture-pool.js';
import { FIXTURE_RUN_ID, writeFixtureRun } from '../helpers/fixture-run.js';
import { type CliCopy, describeResult, runCli, snapshotCli } from '../kill/support/cli.js';
import { createProject, FIXTURE, type Project } from '../kill/support/project.js';

const WIDTHS = [80, 120] as const;
const HEIGHT = 50;
const PHASE_LINE = /… (iteration \d+:|final check)/;
const ROW =
  /^\s{0,3}\d+ {2}(baseline|keep|pooled|discard|gate_fail|holdout_fail|duplicate|error|interrupted)\b/;

let cli: CliCopy;
let project: Project;
let fixtureRunsDir: string;
let simRunId: string;

beforeAll(async () => {
  await execa('tmux', ['-V']).catch(() => {
    throw new Error('tmux is missing: install Debian’s tmux (.ci/run does)');
  });
  cli = await snapshotCli();
  project = await createProject();
  fixtureRunsDir = await mkdtemp(join(tmpdir(), 'ar-screen-'));
  await writeFixtureRun(fixtureRunsDir);
  await writePoolRun(fixtureRunsDir);
  // A real sim run (written without a terminal) for `show`: its header carries the simulated label.
  const made = await runCli(cli.main, ['run', FIXTURE, '--provider', 'sim', '--iterations', '2'], {
    cwd: project.dir,
    env: cleanEnv(project.env),
  });
  expect(made.exitCode, describeResult(made)).toBe(0);
  simRunId = (await project.onlyRun()).id;
  // A whole sim run: more than the default hook time on a loaded machine.
}, 180_000);

afterAll(async () => {
  await project?.cleanup();
  await cli?.cleanup();
  if (fixtureRunsDir) await rm(fixtureRunsDir, { recursive: true, force: true });
});

// One tmux server per test, on its own socket, so tests never see each other's panes.
let socket: string | undefined;
let sockets = 0;
afterEach(async () => {
  if (socket) await execa('tmux', ['-L', socket, 'kill-server'], { reject: false });
  socket = undefined;
});

/** The environment of the terminal: no keys, no colour switches, not nested in the caller's tmux. */
function screenEnv(): NodeJS.ProcessEnv {
  const env = cleanEnv(project.env);
  for (const key of ['NO_COLOR', 'FORCE_COLOR', 'TMUX', 'TMUX_PANE']) delete env[key];
  return { ...env, TERM: 'xterm-256color', TZ: 'UTC' };
}

/**
 * Starts `args` (CLI arguments) in a fresh `width` × HEIGHT terminal. The shell around it
 * prints `[exit N]` when it ends and then waits, so the screen stays readable; its INT trap
 * is a handler (not an ignore, which the CLI would inherit), so Ctrl-C reaches the CLI.
 */
async function openScreen(width: number, args: readonly string[], extraEnv: NodeJS.ProcessEnv = {}) {
  socket = `ar-screen-${process.pid}-${++sockets}`;
  const quoted = [process.execPath, cli.main, ...args].map((arg) => `'${arg.replaceAll("'", `'\\''`)}'`);
  const script = `trap : INT; ${quoted.join(' ')}; echo "[exit $?]"; exec sleep 600`;
  const tmux = (...rest: string[]) =>
    execa('tmux', ['-L', socket as string, '-f', '/dev/null', ...rest], {
      env: { ...screenEnv(), ...extraEnv },
      extendEnv: false,
    });
  await tmux(
    'new-session',
    '-d',
    '-x',
    String(width),
    '-y',
    String(HEIGHT),
    '-c',
    project.dir,
    'sh',
    '-c',
    script,
  );
  /** The screen and its scrollback as lines, trailing empty lines left out. */
  const capture = async (...flags: string[]) => {
    const lines = (await tmux('capture-pane', '-p', '-S', '-', ...flags)).stdout.split('\n');
    while (lines.length > 0 && lines.at(-1)?.trim() === '') lines.pop();
    return lines;
  };
  /** Polls the screen until `ready` holds (a loaded machine is slow; a fixed sleep would flake). */
  const waitFor = async (ready: (lines: string[]) => boolean, what: string, ms = 90_000) => {
    const deadline = Date.now() + ms;
    for (;;) {
      const lines = await capture();
      if (ready(lines)) return lines;
      if (Date.now() > deadline)
        throw new Error(`timed out waiting for ${what}; the screen:\n${lines.join('\n')}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };
  const exited = (lines: string[]) => lines.some((line) => /^\[exit \d+\]$/.test(line));
  return { tmux, capture, waitFor, exited };
}

function exitCode(lines: readonly string[]): number {
  const marker = lines.find((line) => /^\[exit \d+\]$/.test(line)) ?? '';
  return Number(marker.slice(6, -1));
}

/** Lines the terminal itself wrapped: `-J` joins them back, so the two captures differ in count. */
async function wrappedByTerminal(screen: Awaited<ReturnType<typeof openScreen>>): Promise<number> {
  return (await screen.capture()).length - (await screen.capture('-J')).length;
}

function chars(line: string): number {
  return Array.from(line).length;
}

describe.each(WIDTHS)('a real terminal %i columns wide', (width) => {
  it('`run` shows the header, one row per iteration with no blank line between, then the summary', async () => {
    const screen = await openScreen(width, ['run', FIXTURE, '--provider', 'sim', '--iterations', '3']);
    const lines = await screen.waitFor(screen.exited, 'the run to end');
    const shown = lines.join('\n');
    expect(exitCode(lines), shown).toBe(0);

    const header = lines.findIndex((line) => /^run \S+ {2}\d+ cases/.test(line));
    expect(header, shown).toBeGreaterThanOrEqual(0);
    const rows = lines.flatMap((line, index) => (ROW.test(line) ? [index] : []));
    expect(
      rows.map((index) => Number(lines[index]?.trim().split(' ')[0])),
      shown,
    ).toEqual([0, 1, 2, 3]);
    const first = rows[0] as number;
    // The header (run, branch, record) runs straight into the column headers, those into the rows,
    // and the rows into each other.
    expect(
      lines.slice(header, first).filter((line) => line.trim() === ''),
      shown,
    ).toEqual([]);
    expect(lines[first - 2], shown).toMatch(/record/);
    expect(lines[first - 1], shown).toMatch(/^ITER {2}STATUS {8}TRAIN {2}BEST {9}DELTA/);
    expect(rows, shown).toEqual([first, first + 1, first + 2, first + 3]);
    // Then one empty line and the summary.
    expect(lines[first + 4], shown).toBe('');
    expect(lines[first + 5], shown).toMatch(/^Run \S+ stopped \(iterations\)/);
    expect(lines.slice(first + 5).join('\n'), shown).toMatch(/final check \(fresh\)[\s\S]*report/);
    expect(
      lines.filter((line) => PHASE_LINE.test(line)),
      shown,
    ).toEqual([]);
    expect(
      lines.filter((line) => chars(line) > width),
      shown,
    ).toEqual([]);
    expect(await wrappedByTerminal(screen), shown).toBe(0);
  });

  it('Ctrl-C in the middle of a run leaves no phase line on the screen', async () => {
    const screen = await openScreen(width, ['run', FIXTURE, '--provider', 'sim', '--iterations', '40']);
    // Wait until a phase line is showing after iteration 1 finished, then interrupt. It says
    // where the run stands against its budget.
    const before = await screen.waitFor(
      (lines) =>
        lines.some((line) => ROW.test(line) && line.trim().startsWith('1 ')) &&
        PHASE_LINE.test(lines.at(-1) ?? ''),
      'a phase line after iteration 1',
    );
    expect(before.at(-1)).toMatch(/… iteration \d+: .* · \d+ of 40 iterations, /);
    await screen.tmux('send-keys', 'C-c');
    const lines = await screen.waitFor(screen.exited, 'the interrupted run to exit');
    const shown = lines.join('\n');
    expect(exitCode(lines), shown).toBe(130);
    expect(shown).toMatch(/stopped \(interrupted\)/);
    expect(
      lines.filter((line) => PHASE_LINE.test(line)),
      shown,
    ).toEqual([]);
    expect(
      lines.filter((line) => chars(line) > width),
      shown,
    ).toEqual([]);
  });

  it('`show` fits the width: no line longer than it, no word split across lines', async () => {
    for (const [runsDir, id] of [
      [project.runsDir, simRunId],
      [fixtureRunsDir, FIXTURE_RUN_ID],
      // A pareto run (docs/design/pareto-search.md): its pool table and the candidates' rows fit
      // too.
      [fixtureRunsDir, POOL_RUN_ID],
    ] as const) {
      // The same view with room to spare: every word whole, nothing cut.
      const wide = await openScreen(400, ['show', id], { AUTORESEARCH_RUNS_DIR: runsDir });
      const words = new Set((await wide.waitFor(wide.exited, 'a wide `show`')).join(' ').split(/\s+/));
      await execa('tmux', ['-L', socket as string, 'kill-server'], { reject: false });

      const screen = await openScreen(width, ['show', id], { AUTORESEARCH_RUNS_DIR: runsDir });
      const lines = await screen.waitFor(screen.exited, '`show` to end');
      const shown = lines.join('\n');
      expect(exitCode(lines), shown).toBe(0);
      expect(
        lines.filter((line) => chars(line) > width),
        shown,
      ).toEqual([]);
      expect(await wrappedByTerminal(screen), shown).toBe(0);
      // Every word on the screen is a word of the wide view (or was cut, and ends in "…"): a word
      // broken across two lines would leave two pieces that are not.
      const onScreen = lines.flatMap((line) => line.split(/\s+/));
      expect(
        onScreen.filter((word) => word !== '' && !word.endsWith('…') && !words.has(word)),
        shown,
      ).toEqual([]);
      await execa('tmux', ['-L', socket as string, 'kill-server'], { reject: false });
      socket = undefined;
    }
  });
});
