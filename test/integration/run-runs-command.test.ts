/**
 * `autoresearch runs` over a runs folder holding a run in every state: in-process through the
 * real command tree (with the command module bound directly, since vitest cannot follow the
 * lazy loader's computed import), and through the built CLI.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import pc from 'picocolors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import runsCommand from '../../src/cli/commands/runs.js';
import { buildProgram } from '../../src/cli/program.js';
import type { RunLock } from '../../src/run/lock.js';
import type { RunSummary } from '../../src/run/run-summary.js';
import { setTerminal, type Terminal } from '../../src/ui/terminal.js';
import { RUN_IDS, buildRunsFolder } from '../fixtures/runs/build-runs-folder.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
let base: string;
let runsDir: string;
let lock: RunLock;

async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid!;
}

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'ar-runs-cmd-'));
  runsDir = join(base, 'runs');
  ({ lock } = await buildRunsFolder(runsDir, await deadPid()));
});
afterAll(async () => {
  await lock.release();
  await rm(base, { recursive: true, force: true });
});

async function runCli(args: string[], width = 200): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const term: Terminal = {
    out: (text) => {
      out += text.endsWith('\n') ? text : `${text}\n`;
    },
    err: (text) => {
      err += text.endsWith('\n') ? text : `${text}\n`;
    },
    colors: pc.createColors(false),
    isTTY: false,
    errIsTTY: false,
    status: () => undefined,
    rewind: () => undefined,
    width,
  };
  setTerminal(term);
  const program = buildProgram();
  let code = -1;
  program.commands
    .find((command) => command.name() === 'runs')!
    .action(async (options: { json?: boolean }, command: Command) => {
      code = await runsCommand(options, command);
    });
  try {
    await program.parseAsync(['node', 'autoresearch', ...args]);
    return { code, out, err };
  } finally {
    setTerminal(undefined);
  }
}

describe('autoresearch runs', () => {
  it('tells the truth about every run, newest first', async () => {
    const { code, out, err } = await runCli(['--runs-dir', runsDir, 'runs']);
    expect(err).toBe('');
    expect(code).toBe(0);
    const lines = out.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^RUN\s+KIND\s+EXPERIMENT\s+STATUS/);
    const rows = lines.slice(1, 7);
    expect(rows.map((row) => row.split(/\s+/)[0])).toEqual([
      RUN_IDS.running,
      RUN_IDS.crashed,
      RUN_IDS.finished,
      RUN_IDS.stopped,
      RUN_IDS.staleCrashed,
      RUN_IDS.manifestOnly,
    ]);
    const status = (id: string) => rows.find((row) => row.startsWith(id))!.split(/\s{2,}/)[3];
    expect(status(RUN_IDS.running)).toBe('running');
    expect(status(RUN_IDS.crashed)).toBe('crashed');
    expect(status(RUN_IDS.finished)).toBe('finished');
    expect(status(RUN_IDS.stopped)).toBe('stopped');
    expect(status(RUN_IDS.staleCrashed)).toBe('crashed');
    expect(status(RUN_IDS.manifestOnly)).toBe('crashed');
    expect(rows.find((row) => row.startsWith(RUN_IDS.finished))).toMatch(
      /\b2\s+0\.620 -> 0\.700\s+\$0\.07\b.*iteration budget$/,
    );
    expect(rows.find((row) => row.startsWith(RUN_IDS.running))).toContain('(sim)');
    expect(rows.find((row) => row.startsWith(RUN_IDS.running))).toContain(`pid ${process.pid}`);
    expect(rows.find((row) => row.startsWith(RUN_IDS.stopped))).toMatch(/out of credit$/);
    expect(out).not.toContain('not-a-run');
  });

  it('prints JSON summaries with --json', async () => {
    const { code, out } = await runCli(['--runs-dir', runsDir, 'runs', '--json']);
    expect(code).toBe(0);
    const runs = JSON.parse(out) as RunSummary[];
    expect(runs.map((r) => [r.id, r.status])).toEqual([
      [RUN_IDS.running, 'running'],
      [RUN_IDS.crashed, 'crashed'],
      [RUN_IDS.finished, 'finished'],
      [RUN_IDS.stopped, 'stopped'],
      [RUN_IDS.staleCrashed, 'crashed'],
      [RUN_IDS.manifestOnly, 'crashed'],
    ]);
    const finished = runs[2]!;
    expect(Object.keys(finished).sort()).toEqual(
      [
        'id',
        'dir',
        'kind',
        'experiment',
        'status',
        'simulated',
        'iterations',
        'baseline',
        'best',
        'costUsd',
        'ledger',
        'pool',
        'calibration',
        'startedAt',
        'stopReason',
        'stopMessage',
        'holder',
        'problems',
      ].sort(),
    );
    expect(finished).toMatchObject({
      kind: 'run',
      calibration: null,
      experiment: 'cold-email',
      iterations: 2,
      best: 0.7,
      startedAt: '2026-11-29T22:30:00.000Z',
      stopReason: 'iterations',
      stopMessage: 'iteration budget reached (2)',
      holder: null,
      problems: [],
      dir: join(runsDir, RUN_IDS.finished),
    });
    expect(finished.baseline).toBeCloseTo(0.62, 10);
    expect(finished.costUsd).toBeCloseTo(0.07, 10);
    expect(runs[0]).toMatchObject({
      holder: { pid: process.pid },
      simulated: ['generator', 'mutator', 'judge'],
      experiment: 'faq-bot',
    });
    expect(runs[5]).toMatchObject({
      kind: 'run',
      experiment: 'cold-email',
      startedAt: '2026-11-26T06:00:00.000Z',
      iterations: 0,
    });
  });

  it('says so when there are no runs', async () => {
    const { code, out } = await runCli(['--runs-dir', join(base, 'empty'), 'runs']);
    expect(code).toBe(0);
    expect(out).toContain(`No runs in ${join(base, 'empty')}.`);
    expect(existsSync(join(base, 'empty'))).toBe(false);
    expect(JSON.parse((await runCli(['--runs-dir', join(base, 'empty'), 'runs', '--json'])).out)).toEqual([]);
  });

  it('works through the built CLI, reading AUTORESEARCH_RUNS_DIR', async () => {
    const main = join(root, 'dist/cli/main.js');
    if (!existsSync(main)) throw new Error('dist/ is missing: run `npm run build` first');
    const child = spawn(process.execPath, [main, 'runs', '--json'], {
      cwd: base,
      env: { ...process.env, AUTORESEARCH_RUNS_DIR: runsDir, NO_COLOR: '1' },
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(0);
    const runs = JSON.parse(out) as RunSummary[];
    expect(runs.map((r) => r.status)).toEqual([
      'running',
      'crashed',
      'finished',
      'stopped',
      'crashed',
      'crashed',
    ]);
  });
});
