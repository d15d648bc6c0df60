import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReportRefresher, writeReport } from '../../../src/report/write-report.js';
import { writeFixtureRun } from '../../helpers/fixture-run.js';

let runsDir: string;
beforeAll(async () => {
  runsDir = await mkdtemp(join(tmpdir(), 'ar-write-report-'));
});
afterAll(async () => {
  await rm(runsDir, { recursive: true, force: true });
});

describe('writeReport', () => {
  it('writes report.html in the run folder and leaves no temporary file behind', async () => {
    const run = await writeFixtureRun(runsDir);
    const file = await writeReport(run.dir, { now: () => new Date('2026-11-30T07:00:00Z') });
    expect(file).toBe(join(run.dir, 'report.html'));
    const html = await readFile(file, 'utf8');
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain('"generatedAt":"2026-11-30T07:00:00.000Z"');
    expect((await readdir(run.dir)).filter((name) => name.includes('report'))).toEqual(['report.html']);
  });
});

describe('createReportRefresher', () => {
  function setup(minIntervalMs?: number) {
    let clock = 1_000_000;
    const writes: number[] = [];
    let release: (() => void) | null = null;
    let hold = false;
    const refresher = createReportRefresher('/runs/x', {
      ...(minIntervalMs === undefined ? {} : { minIntervalMs }),
      now: () => clock,
      write: async () => {
        writes.push(clock);
        if (hold) await new Promise<void>((resolve) => (release = resolve));
      },
    });
    return {
      refresher,
      writes,
      advance: (ms: number) => (clock += ms),
      holdNext: () => (hold = true),
      release: () => {
        hold = false;
        release?.();
      },
    };
  }

  it('writes at most once every 30 s by default', async () => {
    const t = setup();
    expect(await t.refresher.maybeRefresh()).toBe(true);
    t.advance(29_999);
    expect(await t.refresher.maybeRefresh()).toBe(false);
    t.advance(1);
    expect(await t.refresher.maybeRefresh()).toBe(true);
    expect(t.writes).toEqual([1_000_000, 1_030_000]);
  });

  it('always writes at the end, after a write in flight', async () => {
    const t = setup(5_000);
    t.holdNext();
    const first = t.refresher.maybeRefresh();
    await Promise.resolve();
    t.advance(10_000);
    expect(await t.refresher.maybeRefresh()).toBe(false);
    const last = t.refresher.refreshNow();
    t.release();
    await first;
    await last;
    expect(t.writes).toEqual([1_000_000, 1_010_000]);
    expect(await t.refresher.maybeRefresh()).toBe(false);
  });

  it('passes a failed write on to the caller and tries again next time', async () => {
    let fail = true;
    let clock = 0;
    const refresher = createReportRefresher('/runs/x', {
      minIntervalMs: 100,
      now: () => clock,
      write: async () => {
        if (fail) throw new Error('disk full');
      },
    });
    await expect(refresher.maybeRefresh()).rejects.toThrow('disk full');
    fail = false;
    clock = 100;
    await expect(refresher.maybeRefresh()).resolves.toBe(true);
  });
});
