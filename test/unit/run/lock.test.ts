import { mkdtemp, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  RunLockedError,
  acquireRunLock,
  parseLockRecord,
  readLockStatus,
  type LockRecord,
} from '../../../src/run/lock.js';
import { parseProcStat, type ProcessProbe } from '../../../src/run/process-identity.js';
import { sha256Hex } from '../../../src/sha256.js';

/** A machine where the given pids are alive with the given start times. */
function fakeProbe(alive: Record<number, string | null>, host = 'here'): ProcessProbe {
  return {
    host,
    inspect: async (pid) =>
      pid in alive ? { alive: true, startTime: alive[pid] ?? null } : { alive: false, startTime: null },
  };
}

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ar-lock-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function record(partial: Partial<LockRecord>): LockRecord {
  return {
    pid: 4242,
    host: 'here',
    startTime: 't0',
    token: 'old',
    acquiredAt: '2026-11-29T22:30:00.000Z',
    ...partial,
  };
}

describe('run lock (logic, with a fake process table)', () => {
  it('is exclusive until released, and then free', async () => {
    const probe = fakeProbe({ 10: 's10', 11: 's11' });
    const first = await acquireRunLock(dir, { pid: 10, host: 'here', startTime: 's10' }, { probe });
    expect(first.warning).toBeNull();
    expect(await readLockStatus(dir, { probe })).toMatchObject({
      state: 'held',
      verified: true,
      holder: { pid: 10 },
    });
    const refused = await acquireRunLock(dir, { pid: 11, host: 'here', startTime: 's11' }, { probe }).catch(
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(RunLockedError);
    expect(refused).toMatchObject({ code: 'E_LOCKED', exitCode: 2, holder: { pid: 10, host: 'here' } });
    expect((refused as Error).message).toContain('process 10 on here');
    await first.release();
    await first.release();
    expect(await readLockStatus(dir, { probe })).toEqual({ state: 'none' });
    const second = await acquireRunLock(dir, { pid: 11, host: 'here', startTime: 's11' }, { probe });
    expect(second.warning).toBeNull();
    expect(await readdir(dir)).toEqual(['run.lock']);
  });

  it('takes over a lock whose process is gone, with a warning', async () => {
    await writeFile(join(dir, 'run.lock'), JSON.stringify(record({ pid: 99 })));
    const probe = fakeProbe({ 10: 's10' });
    expect(await readLockStatus(dir, { probe })).toMatchObject({
      state: 'stale',
      reason: 'process 99 is gone',
    });
    const lock = await acquireRunLock(dir, { pid: 10, host: 'here', startTime: 's10' }, { probe });
    expect(lock.warning).toBe('took over a stale lock (process 99 on here): process 99 is gone');
    expect(JSON.parse(await readFile(join(dir, 'run.lock'), 'utf8'))).toMatchObject({
      pid: 10,
      startTime: 's10',
    });
    expect(await readdir(dir)).toEqual(['run.lock']);
  });

  it('takes over a lock whose pid now belongs to another process', async () => {
    await writeFile(join(dir, 'run.lock'), JSON.stringify(record({ pid: 77, startTime: 'before-reboot' })));
    const probe = fakeProbe({ 77: 'someone-else', 10: 's10' });
    const lock = await acquireRunLock(dir, { pid: 10, host: 'here', startTime: 's10' }, { probe });
    expect(lock.warning).toContain('pid 77 now belongs to a different process');
  });

  it('takes over an unreadable lock file', async () => {
    await writeFile(join(dir, 'run.lock'), '{"pid":');
    const lock = await acquireRunLock(
      dir,
      { pid: 10, host: 'here', startTime: null },
      { probe: fakeProbe({ 10: null }) },
    );
    expect(lock.warning).toMatch(/unreadable/);
  });

  it('never takes over a lock held from another host', async () => {
    await writeFile(join(dir, 'run.lock'), JSON.stringify(record({ host: 'elsewhere' })));
    const probe = fakeProbe({});
    expect(await readLockStatus(dir, { probe })).toMatchObject({ state: 'held', verified: false });
    const refused = await acquireRunLock(dir, { pid: 10, host: 'here', startTime: null }, { probe }).catch(
      (e: unknown) => e,
    );
    expect(refused).toMatchObject({ code: 'E_LOCKED', hint: expect.stringContaining('run.lock') });
  });

  it('does not release a lock that was taken over by someone else', async () => {
    const probe = fakeProbe({ 10: 's10' });
    const mine = await acquireRunLock(dir, { pid: 10, host: 'here', startTime: 's10' }, { probe });
    const theirs = `${JSON.stringify(record({ pid: 12, token: 'theirs' }))}\n`;
    await writeFile(join(dir, 'run.lock'), theirs);
    await mine.release();
    expect(await readFile(join(dir, 'run.lock'), 'utf8')).toBe(theirs);
  });
});

describe('run lock under concurrent contention', () => {
  it('gives a stale lock to exactly one of many concurrent contenders', async () => {
    const pids = Array.from({ length: 8 }, (_, i) => 100 + i);
    const probe = fakeProbe(Object.fromEntries(pids.map((pid) => [pid, `s${pid}`])));
    for (let round = 0; round < 15; round++) {
      await writeFile(join(dir, 'run.lock'), JSON.stringify(record({ pid: 99, token: `dead-${round}` })));
      const results = await Promise.allSettled(
        pids.map((pid) => acquireRunLock(dir, { pid, host: 'here', startTime: `s${pid}` }, { probe })),
      );
      const winners = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
      expect(winners).toHaveLength(1);
      const winner = winners[0]!;
      for (const r of results) {
        if (r.status === 'rejected')
          expect(r.reason).toMatchObject({ code: 'E_LOCKED', holder: { pid: winner.record.pid } });
      }
      expect(JSON.parse(await readFile(join(dir, 'run.lock'), 'utf8'))).toMatchObject({
        token: winner.record.token,
      });
      await winner.release();
      expect(await readdir(dir)).toEqual([]);
    }
  });
});

describe('run lock while another contender takes a stale lock over', () => {
  it('waits for the takeover and names whoever holds the lock after it, not the contender', async () => {
    const probe = fakeProbe({ 105: 's105', 106: 's106', 107: 's107' });
    const stale = `${JSON.stringify(record({ pid: 99, token: 'dead' }))}\n`;
    await writeFile(join(dir, 'run.lock'), stale);
    // Contender 105 holds the takeover guard for that stale content; it will lose to 106.
    const guard = join(dir, `run.lock.takeover-${sha256Hex(stale).slice(0, 16)}`);
    await writeFile(guard, `${JSON.stringify(record({ pid: 105, startTime: 's105', token: 'g' }))}\n`);
    const contender = acquireRunLock(dir, { pid: 107, host: 'here', startTime: 's107' }, { probe }).catch(
      (e: unknown) => e,
    );
    await new Promise((resolve) => setTimeout(resolve, 60));
    const winner = join(dir, 'run.lock.next');
    await writeFile(winner, `${JSON.stringify(record({ pid: 106, startTime: 's106', token: 'w' }))}\n`);
    await rename(winner, join(dir, 'run.lock'));
    await rm(guard);
    expect(await contender).toMatchObject({ code: 'E_LOCKED', holder: { pid: 106 } });
  });
});

describe('parseProcStat', () => {
  it('reads the state and start time even when the command name holds spaces and parentheses', () => {
    const fields = Array.from({ length: 50 }, (_, i) => String(i + 3));
    fields[0] = 'S';
    fields[19] = '987654';
    expect(parseProcStat(`1234 (node (x) y) ${fields.join(' ')}\n`)).toEqual({
      state: 'S',
      startTicks: '987654',
    });
    expect(parseProcStat('garbage')).toBeNull();
  });
});

describe('parseLockRecord', () => {
  it('takes a record with exactly its keys, each of its type', () => {
    expect(parseLockRecord(record({}))).toEqual(record({}));
    expect(
      parseLockRecord(record({ startTime: null, acquiredAt: '2026-11-29T22:30:00+01:00' })),
    ).toBeDefined();
  });

  it.each([
    ['a pid of 0', { pid: 0 }],
    ['a fractional pid', { pid: 1.5 }],
    ['a pid as text', { pid: '4242' }],
    ['an empty host', { host: '' }],
    ['a numeric start time', { startTime: 5 }],
    ['an empty token', { token: '' }],
    ['a time without a zone', { acquiredAt: '2026-11-29T22:30:00' }],
    ['a day that does not exist', { acquiredAt: '2026-02-30T22:30:00Z' }],
  ])('refuses %s', (_what, partial) => {
    expect(parseLockRecord({ ...record({}), ...partial })).toBeUndefined();
  });

  it('refuses a missing key, an extra key and what is not an object', () => {
    const { token: _token, ...withoutToken } = record({});
    expect(parseLockRecord(withoutToken)).toBeUndefined();
    expect(parseLockRecord({ ...record({}), extra: 1 })).toBeUndefined();
    expect(parseLockRecord([record({})])).toBeUndefined();
    expect(parseLockRecord(null)).toBeUndefined();
  });
});
