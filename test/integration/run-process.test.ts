/**
 * The one process runner: a program's process group lives and dies with it, a deadline or an
 * abort kills the whole group, and the result never waits on pipes a grandchild still holds.
 * Real subprocesses (sh and sleep); pids are read from a file the script writes.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runProcess } from '../../src/process/run-process.js';
import { isAlive } from '../helpers/process-alive.js';

let dir: string;
const leftovers: number[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ar-run-process-'));
});
afterEach(() => {
  // Whatever a failing test left behind must not outlive it.
  for (const pid of leftovers.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function readPids(file: string): Promise<number[]> {
  const pids = (await readFile(file, 'utf8')).split('\n').filter(Boolean).map(Number);
  leftovers.push(...pids);
  return pids;
}

async function waitGone(pids: readonly number[], withinMs = 3000): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    if (pids.every((pid) => !isAlive(pid))) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

function sh(script: string, pidFile: string, extra: { timeoutMs?: number; signal?: AbortSignal } = {}) {
  return runProcess({
    file: 'sh',
    args: ['-c', script, 'sh', pidFile],
    cwd: dir,
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' },
    timeoutMs: extra.timeoutMs ?? 20_000,
    signal: extra.signal,
  });
}

describe('runProcess', () => {
  it('returns when the program exits, killing what it left running in the background', async () => {
    const pidFile = join(dir, 'background.pids');
    const started = Date.now();
    const result = await sh('sleep 300 & echo $! > "$1"; echo done', pidFile);
    expect(result).toMatchObject({ exitCode: 0, timedOut: false, aborted: false, stdout: 'done' });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(await waitGone(await readPids(pidFile))).toBe(true);
  });

  it.skipIf(process.platform !== 'linux')(
    'does not wait on pipes held by a grandchild that left the group',
    async () => {
      const pidFile = join(dir, 'escaped.pids');
      const started = Date.now();
      const result = await sh('setsid sleep 300 & echo $! > "$1"; echo out; echo err >&2', pidFile);
      expect(result).toMatchObject({ exitCode: 0, timedOut: false, stdout: 'out', stderr: 'err' });
      expect(Date.now() - started).toBeLessThan(5000);
      await readPids(pidFile);
    },
  );

  it('kills the whole group at the deadline', async () => {
    const pidFile = join(dir, 'timeout.pids');
    const started = Date.now();
    const result = await sh('sleep 300 & echo $! > "$1"; echo $$ >> "$1"; sleep 300', pidFile, {
      timeoutMs: 500,
    });
    expect(result).toMatchObject({ exitCode: null, timedOut: true, aborted: false });
    expect(Date.now() - started).toBeLessThan(5000);
    const pids = await readPids(pidFile);
    expect(pids).toHaveLength(2);
    expect(await waitGone(pids)).toBe(true);
  });

  it('kills the whole group at an abort', async () => {
    const pidFile = join(dir, 'abort.pids');
    const controller = new AbortController();
    const pending = sh('sleep 300 & echo $! > "$1"; echo $$ >> "$1"; sleep 300', pidFile, {
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 300);
    expect(await pending).toMatchObject({ exitCode: null, timedOut: false, aborted: true });
    expect(await waitGone(await readPids(pidFile))).toBe(true);
  });

  it('describes a program that cannot start instead of throwing', async () => {
    const result = await runProcess({
      file: 'autoresearch-no-such-program',
      args: [],
      cwd: dir,
      env: {},
      timeoutMs: 5000,
    });
    expect(result).toMatchObject({ exitCode: null, startError: { code: 'ENOENT' } });
  });
});
