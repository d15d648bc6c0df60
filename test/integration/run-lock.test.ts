/**
 * The run lock across real processes: contenders are separate Node processes running the
 * built lock module (test/fixtures/runs/hold-lock.mjs), so these tests need `npm run build`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readLockStatus } from '../../src/run/lock.js';
import { readProcessStartTime } from '../../src/run/process-identity.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const fixture = join(root, 'test/fixtures/runs/hold-lock.mjs');
const isLinux = process.platform === 'linux';

interface Report {
  acquired?: boolean;
  released?: boolean;
  pid: number;
  warning?: string | null;
  code?: string;
  message?: string;
  holder?: { pid: number; host: string } | null;
}

interface Contender {
  child: ChildProcess;
  first: Promise<Report>;
  exited: Promise<number | null>;
}

const children: ChildProcess[] = [];
let runDir: string;

beforeAll(() => {
  if (!existsSync(join(root, 'dist/run/lock.js')))
    throw new Error('dist/ is missing: run `npm run build` first');
});
beforeEach(async () => {
  runDir = await mkdtemp(join(tmpdir(), 'ar-lock-int-'));
});
afterEach(async () => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await rm(runDir, { recursive: true, force: true });
});

function contend(): Contender {
  const child = spawn(process.execPath, [fixture, runDir], { stdio: ['pipe', 'pipe', 'inherit'] });
  children.push(child);
  const lines = createInterface({ input: child.stdout! });
  const first = new Promise<Report>((resolve, reject) => {
    lines.once('line', (line) => resolve(JSON.parse(line) as Report));
    child.once('exit', (code) => reject(new Error(`contender exited (${code}) before reporting`)));
  });
  first.catch(() => {});
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, first, exited };
}

async function finish(contender: Contender): Promise<void> {
  contender.child.stdin!.end();
  await contender.exited;
}

/** A pid that certainly belonged to a process that has exited and been reaped. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid!;
}

describe('run lock across processes', () => {
  it('refuses a second holder, naming the first, until the first releases', async () => {
    const a = contend();
    expect(await a.first).toMatchObject({ acquired: true, warning: null });
    const b = contend();
    const refused = await b.first;
    expect(refused).toMatchObject({
      acquired: false,
      code: 'E_LOCKED',
      holder: { pid: a.child.pid, host: hostname() },
    });
    expect(refused.message).toContain(`process ${a.child.pid}`);
    expect(await b.exited).toBe(3);
    expect(await readLockStatus(runDir)).toMatchObject({
      state: 'held',
      verified: true,
      holder: { pid: a.child.pid },
    });

    await finish(a);
    expect(await readLockStatus(runDir)).toEqual({ state: 'none' });
    const c = contend();
    expect(await c.first).toMatchObject({ acquired: true, warning: null });
    await finish(c);
  });

  it('lets exactly one of several simultaneous contenders win, with or without a stale lock', async () => {
    for (const stale of [false, true]) {
      if (stale) {
        const lock = {
          pid: await deadPid(),
          host: hostname(),
          startTime: null,
          token: 'dead',
          acquiredAt: new Date().toISOString(),
        };
        await writeFile(join(runDir, 'run.lock'), JSON.stringify(lock));
      }
      const contenders = Array.from({ length: 4 }, () => contend());
      const reports = await Promise.all(contenders.map((c) => c.first));
      const winners = reports.filter((r) => r.acquired);
      expect(winners).toHaveLength(1);
      const winner = winners[0]!;
      expect(winner.warning === null).toBe(!stale);
      for (const loser of reports.filter((r) => !r.acquired)) {
        expect(loser).toMatchObject({ code: 'E_LOCKED', holder: { pid: winner.pid } });
      }
      const held = JSON.parse(await readFile(join(runDir, 'run.lock'), 'utf8')) as { pid: number };
      expect(held.pid).toBe(winner.pid);
      await Promise.all(contenders.map((c) => finish(c)));
      expect(await readLockStatus(runDir)).toEqual({ state: 'none' });
    }
  });

  it('takes over the lock of a holder that was killed', async () => {
    const a = contend();
    expect(await a.first).toMatchObject({ acquired: true });
    a.child.kill('SIGKILL');
    await a.exited;
    expect(await readLockStatus(runDir)).toMatchObject({
      state: 'stale',
      reason: `process ${a.child.pid} is gone`,
    });
    const b = contend();
    const report = await b.first;
    expect(report).toMatchObject({ acquired: true });
    expect(report.warning).toContain(`process ${a.child.pid} is gone`);
    await finish(b);
  });

  it.runIf(isLinux)(
    'takes over a lock whose pid was reused by another process, but not one whose start time matches',
    async () => {
      const sleeper = spawn(process.execPath, ['-e', 'setInterval(() => {}, 60000)']);
      children.push(sleeper);
      const pid = sleeper.pid!;
      const startTime = await readProcessStartTime(pid);
      expect(startTime).not.toBeNull();
      const lock = (start: string) =>
        JSON.stringify({
          pid,
          host: hostname(),
          startTime: start,
          token: 't',
          acquiredAt: new Date().toISOString(),
        });

      await writeFile(join(runDir, 'run.lock'), lock(startTime!));
      const refused = contend();
      expect(await refused.first).toMatchObject({ acquired: false, code: 'E_LOCKED', holder: { pid } });

      await writeFile(join(runDir, 'run.lock'), lock(`${startTime}-of-an-earlier-process`));
      expect(await readLockStatus(runDir)).toMatchObject({
        state: 'stale',
        reason: `pid ${pid} now belongs to a different process`,
      });
      const taker = contend();
      const report = await taker.first;
      expect(report).toMatchObject({ acquired: true });
      expect(report.warning).toContain(`pid ${pid} now belongs to a different process`);
      await finish(taker);
    },
  );
});
