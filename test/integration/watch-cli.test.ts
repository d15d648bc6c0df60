/**
 * `autoresearch watch` as a real process (the built CLI, stdout not a TTY) on a run that
 * starts after it: the test appends the journal itself, one step at a time, waiting for
 * each step to be shown before writing the next. Needs `npm run build` first.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { appendFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../src/run/events.js';
import { planFixtureRun, writeFixtureFiles } from '../helpers/fixture-run.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const cli = join(root, 'dist/cli/main.js');
const holdLock = join(root, 'test/fixtures/runs/hold-lock.mjs');
const children: ChildProcess[] = [];
let runsDir: string;

beforeAll(() => {
  if (!existsSync(cli)) throw new Error('dist/ is missing: run `npm run build` first');
});
beforeEach(async () => {
  runsDir = await mkdtemp(join(tmpdir(), 'ar-watch-cli-'));
});
afterEach(async () => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await rm(runsDir, { recursive: true, force: true });
});

interface Watched {
  output: string[];
  errors: string[];
  /** Resolves with the first line (so far or to come) matching `pattern`. */
  waitFor(pattern: RegExp, stream?: 'stdout' | 'stderr'): Promise<string>;
  exit: Promise<number | null>;
}

function start(args: string[]): Watched {
  const env: NodeJS.ProcessEnv = { ...process.env, AUTORESEARCH_RUNS_DIR: runsDir, NO_COLOR: '1' };
  delete env['FORCE_COLOR'];
  const child = spawn(process.execPath, [cli, ...args], {
    env,
    cwd: runsDir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const output: string[] = [];
  const errors: string[] = [];
  const waiters: { pattern: RegExp; stream: 'stdout' | 'stderr'; resolve: (line: string) => void }[] = [];
  const listen = (stream: 'stdout' | 'stderr', into: string[]) => {
    createInterface({ input: stream === 'stdout' ? child.stdout! : child.stderr! }).on('line', (line) => {
      into.push(line);
      for (const waiter of [...waiters]) {
        if (waiter.stream === stream && waiter.pattern.test(line)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(line);
        }
      }
    });
  };
  listen('stdout', output);
  listen('stderr', errors);
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    output,
    errors,
    exit,
    waitFor: (pattern, stream = 'stdout') => {
      const seen = (stream === 'stdout' ? output : errors).find((line) => pattern.test(line));
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise<string>((resolve, reject) => {
        waiters.push({ pattern, stream, resolve });
        void exit.then((code) =>
          reject(
            new Error(
              `watch exited (${code}) before printing ${pattern}:\n${output.join('\n')}\n${errors.join('\n')}`,
            ),
          ),
        );
      });
    },
  };
}

async function appendEvents(runDir: string, events: readonly RunEvent[]): Promise<void> {
  await appendFile(
    join(runDir, 'events.jsonl'),
    events.map((event) => `${JSON.stringify(event)}\n`).join(''),
  );
}

/** The journal cut after each iteration_finished, then the tail (final evaluation and stop). */
function stepsOf(events: readonly RunEvent[]): RunEvent[][] {
  const steps: RunEvent[][] = [];
  let current: RunEvent[] = [];
  for (const event of events) {
    current.push(event);
    if (event.type === 'iteration_finished') {
      steps.push(current);
      current = [];
    }
  }
  steps.push(current);
  return steps;
}

describe('autoresearch watch <run-id>', () => {
  it('starts before the journal exists, prints each iteration as it lands and exits 0 at run_stopped', async () => {
    const plan = planFixtureRun();
    const runDir = join(runsDir, plan.id);
    await writeFixtureFiles(runDir, plan);
    const watch = start(['watch', plan.id.slice(0, 13)]);
    await watch.waitFor(/^waiting for run 20261129-2230-cold-email-k3f9 to write its journal…$/);

    const steps = stepsOf(plan.events);
    for (const [index, step] of steps.entries()) {
      await appendEvents(runDir, step);
      const finished = step.findLast((e) => e.type === 'iteration_finished');
      if (finished?.type === 'iteration_finished') {
        await watch.waitFor(new RegExp(`^ +${finished.iteration}  ${finished.status}`));
      } else {
        expect(index).toBe(steps.length - 1);
      }
    }
    expect(await watch.exit).toBe(0);
    const text = watch.output.join('\n');
    expect(watch.output.slice(0, 3)).toEqual([
      'watching run 20261129-2230-cold-email-k3f9',
      'waiting for run 20261129-2230-cold-email-k3f9 to write its journal…',
      'run started: cold-email (run)',
    ]);
    expect(text).toContain('     iteration 5: judging 0/3');
    for (const status of ['baseline', 'keep', 'discard', 'gate_fail', 'error', 'duplicate', 'holdout_fail']) {
      expect(text).toMatch(new RegExp(`^ +\\d+  ${status} `, 'm'));
    }
    expect(watch.output.slice(-3)).toEqual([
      'final check (fresh): train 0.429 → 0.922, holdout 0.433 → 0.927',
      'run stopped (iterations): reached the iteration budget (7)',
      'best 0.933 at iteration 5 (baseline 0.433); 7 iterations; $0.46 spent',
    ]);
    expect(text).not.toContain('\u001b[');
  });
});

describe('autoresearch watch on a terminal', () => {
  it('draws a coloured frame in place instead of lines (a pty from `script`)', async () => {
    const run = planFixtureRun();
    const runDir = join(runsDir, run.id);
    await writeFixtureFiles(runDir, run);
    await appendEvents(runDir, run.events);
    const env: NodeJS.ProcessEnv = { ...process.env, AUTORESEARCH_RUNS_DIR: runsDir };
    delete env['NO_COLOR'];
    delete env['FORCE_COLOR'];
    const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(cli)} watch ${run.id}`;
    const child = spawn('script', ['-qec', command, '/dev/null'], {
      env,
      cwd: runsDir,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    children.push(child);
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(0);
    expect(output).toContain('autoresearch watch');
    expect(output).toContain('\u001b[1mstopped\u001b[22m (iterations)');
    expect(output).not.toContain('watching run');
  });
});

describe('autoresearch watch (no id)', () => {
  it('waits for a run to start, then follows the newest running one to its end', async () => {
    const watch = start(['watch']);
    await watch.waitFor(/^No run is running in .*; waiting for one to start/, 'stderr');

    const plan = planFixtureRun({ runId: '20261130-0100-cold-email-live' });
    const runDir = join(runsDir, plan.id);
    await writeFixtureFiles(runDir, plan);
    const holder = spawn(process.execPath, [holdLock, runDir], { stdio: ['pipe', 'pipe', 'inherit'] });
    children.push(holder);
    const acquired = await new Promise<string>((resolve) =>
      createInterface({ input: holder.stdout! }).once('line', resolve),
    );
    expect(JSON.parse(acquired)).toMatchObject({ acquired: true });

    await watch.waitFor(/^watching run 20261130-0100-cold-email-live$/);
    await appendEvents(runDir, plan.events);
    expect(await watch.exit).toBe(0);
    expect(watch.output.at(-2)).toBe('run stopped (iterations): reached the iteration budget (7)');
    holder.stdin!.end();
  });
});
