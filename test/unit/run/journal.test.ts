import { appendFile, mkdtemp, open, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RunEvent } from '../../../src/run/events.js';
import { appendEvents, parseJournal, readJournal } from '../../../src/run/journal.js';
import { JournalBuilder } from '../../fixtures/runs/journal-builder.js';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ar-journal-'));
});

afterEach(async () => {
  vi.restoreAllMocks();
  await rm(dir, { recursive: true, force: true });
});

const journalFile = () => join(dir, 'events.jsonl');

describe('appendEvents / readJournal', () => {
  it('round-trips events appended in several steps, one full line each', async () => {
    const events = new JournalBuilder()
      .start()
      .baseline([0.5, 0.6])
      .iteration(1, { status: 'discard' }).events;
    await appendEvents(dir, events.slice(0, 3));
    await appendEvents(dir, events.slice(3));
    await appendEvents(dir, []);
    const read = await readJournal(dir);
    expect(read).toEqual({ events, tornTail: false, invalidLines: [] });
    const text = await readFile(journalFile(), 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    expect(text.trimEnd().split('\n')).toHaveLength(events.length);
  });

  it('flushes the file to disk before returning', async () => {
    const probe = await open(join(dir, 'probe'), 'w');
    const proto = Object.getPrototypeOf(probe) as {
      sync: () => Promise<void>;
      write: () => Promise<unknown>;
    };
    await probe.close();
    const order: string[] = [];
    const realWrite = proto.write;
    const realSync = proto.sync;
    vi.spyOn(proto, 'write').mockImplementation(function (this: unknown, ...args: unknown[]) {
      order.push('write');
      return (realWrite as (...a: unknown[]) => Promise<unknown>).apply(this, args);
    });
    vi.spyOn(proto, 'sync').mockImplementation(function (this: unknown) {
      order.push('sync');
      return realSync.apply(this);
    });
    const [first, second] = new JournalBuilder().start().resume().events;
    await appendEvents(dir, [first!]);
    order.length = 0;
    await appendEvents(dir, [second!]);
    expect(order.indexOf('write')).toBeGreaterThanOrEqual(0);
    expect(order.lastIndexOf('sync')).toBeGreaterThan(order.lastIndexOf('write'));
  });

  it('refuses an invalid event without writing anything', async () => {
    const [good] = new JournalBuilder().start().events;
    const bad = { ...good, runId: '' } as RunEvent;
    await expect(appendEvents(dir, [good!, bad])).rejects.toThrow();
    expect((await readJournal(dir)).events).toEqual([]);
  });

  it('keeps every line whole when appends from one process overlap, even over a torn tail', async () => {
    const b = new JournalBuilder().start();
    for (let i = 0; i < 40; i++) b.push({ type: 'warning', message: `warning ${i} ${'x'.repeat(i * 200)}` });
    await writeFile(journalFile(), '{"v":1,"at":"2026-11-29T22:29:00.000Z","ty');
    await Promise.all(b.events.map((event) => appendEvents(dir, [event])));
    const read = await readJournal(dir);
    expect(read.tornTail).toBe(false);
    expect(read.events).toHaveLength(b.events.length);
    expect(new Set(read.events.map((e) => e.at))).toEqual(new Set(b.events.map((e) => e.at)));
  });

  it('never has two appends to one journal in flight at once', async () => {
    const probe = await open(join(dir, 'probe'), 'w');
    const proto = Object.getPrototypeOf(probe) as { stat: () => Promise<unknown>; sync: () => Promise<void> };
    await probe.close();
    let inFlight = 0;
    let most = 0;
    const realStat = proto.stat;
    const realSync = proto.sync;
    vi.spyOn(proto, 'stat').mockImplementation(function (this: unknown) {
      inFlight += 1;
      most = Math.max(most, inFlight);
      return realStat.apply(this);
    });
    // Each append opens with a stat (the torn-tail check) and ends with its fsync.
    vi.spyOn(proto, 'sync').mockImplementation(async function (this: unknown) {
      inFlight -= 1;
      return realSync.apply(this);
    });
    const b = new JournalBuilder().start();
    for (let i = 0; i < 10; i++) b.push({ type: 'warning', message: `w${i}` });
    await Promise.all(b.events.map((event) => appendEvents(dir, [event])));
    expect(most).toBe(1);
    expect((await readJournal(dir)).events).toHaveLength(11);
  });

  it('reads a missing journal as empty', async () => {
    expect(await readJournal(join(dir, 'nope'))).toEqual({ events: [], tornTail: false, invalidLines: [] });
  });

  it('ignores and reports a torn last line, and the next append cuts it off', async () => {
    const b = new JournalBuilder().start().baseline([0.5]);
    await writeFile(journalFile(), b.jsonl());
    await appendFile(journalFile(), '{"v":1,"at":"2026-11-29T23:00:00.000Z","type":"iteration_sta');
    const torn = await readJournal(dir);
    expect(torn.tornTail).toBe(true);
    expect(torn.events).toEqual(b.events);

    const more = new JournalBuilder('2026-11-29T23:00:00.000Z').iteration(1, { status: 'discard' }).events;
    await appendEvents(dir, more);
    const repaired = await readJournal(dir);
    expect(repaired.tornTail).toBe(false);
    expect(repaired.events).toEqual([...b.events, ...more]);
  });

  it('cuts a torn first line too', async () => {
    await writeFile(journalFile(), '{"v":1,"at":"2026');
    const events = new JournalBuilder().start().events;
    await appendEvents(dir, events);
    expect(await readJournal(dir)).toEqual({ events, tornTail: false, invalidLines: [] });
  });

  it('names the line of an invalid event in the middle', async () => {
    const lines = new JournalBuilder().start().baseline([0.5]).jsonl().split('\n');
    lines.splice(2, 0, '{"v":1,"at":"2026-11-29T22:30:00.000Z","type":"iteration_started","iteration":-1}');
    await writeFile(journalFile(), lines.join('\n'));
    await expect(readJournal(dir)).rejects.toMatchObject({ code: 'E_RUN_RECORD', message: /line 3 / });
    const collected = await readJournal(dir, { onInvalid: 'collect' });
    expect(collected.invalidLines).toEqual([{ line: 3, message: expect.stringContaining('iteration') }]);
    expect(collected.events).toHaveLength(lines.filter((l) => l !== '').length - 1);
  });
});

describe('parseJournal', () => {
  it('explains lines from a newer tool and lines that are not JSON', () => {
    const read = parseJournal('{"v":99,"type":"run_started"}\nnot json\n\n');
    expect(read.invalidLines).toEqual([
      { line: 1, message: 'written by a newer autoresearch (event version 99)' },
      { line: 2, message: 'not JSON' },
    ]);
    expect(read.tornTail).toBe(false);
  });

  it('rejects unknown keys and unknown event types', () => {
    const [event] = new JournalBuilder().start().events;
    const read = parseJournal(
      `${JSON.stringify({ ...event, extra: 1 })}\n{"v":1,"at":"2026-01-01T00:00:00Z","type":"nope"}\n`,
    );
    expect(read.invalidLines.map((l) => l.line)).toEqual([1, 2]);
  });
});
