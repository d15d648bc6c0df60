import pc from 'picocolors';
import { describe, expect, it } from 'vitest';
import { startWatchSession, type WatchSessionDeps } from '../../../src/report/watch-session.js';
import type { RunEvent } from '../../../src/run/events.js';
import { FIXTURE_RUN_ID, planFixtureRun } from '../../helpers/fixture-run.js';

const events = planFixtureRun().events;
const baselineEnd = events.findIndex((e) => e.type === 'iteration_finished') + 1;

function fakes(options: { tty?: boolean; journal?: RunEvent[] | null } = {}) {
  let journal: RunEvent[] | null = options.journal ?? null;
  let onChange: () => void = () => {};
  let closed = false;
  let now = Date.parse('2026-11-29T22:31:00.000Z');
  const timers = new Map<number, () => void>();
  const pending: { fire: () => void; cancelled: boolean }[] = [];
  const writes: string[] = [];
  const deps: WatchSessionDeps = {
    readEvents: async () => (journal === null ? null : [...journal]),
    watch: (callback) => {
      onChange = callback;
      return {
        close: () => {
          closed = true;
        },
      };
    },
    clock: {
      now: () => new Date(now),
      every: (ms, tick) => {
        timers.set(ms, tick);
        return () => timers.delete(ms);
      },
      after: (_ms, fire) => {
        const entry = { fire, cancelled: false };
        pending.push(entry);
        return () => {
          entry.cancelled = true;
        };
      },
    },
    output: {
      tty: options.tty ?? false,
      width: () => 100,
      colors: pc.createColors(false),
      write: (text) => writes.push(text),
      rewind: (lines) => writes.push(`<rewind ${lines}>`),
    },
  };
  return {
    deps,
    writes,
    append(more: RunEvent[]) {
      journal = [...(journal ?? []), ...more];
    },
    change: () => onChange(),
    tick: (ms: number) => timers.get(ms)?.(),
    settle: () => {
      for (const entry of pending.splice(0)) if (!entry.cancelled) entry.fire();
    },
    advance: (ms: number) => (now += ms),
    timers,
    isClosed: () => closed,
  };
}

const flush = async () => {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
};

describe('startWatchSession without a TTY', () => {
  it('waits for the journal, prints phases and iterations as they land, and ends at run_stopped', async () => {
    const f = fakes();
    const session = startWatchSession(FIXTURE_RUN_ID, f.deps);
    await flush();
    expect(f.writes).toEqual([
      `watching run ${FIXTURE_RUN_ID}`,
      `waiting for run ${FIXTURE_RUN_ID} to write its journal…`,
    ]);

    f.append(events.slice(0, baselineEnd));
    f.change();
    await flush();
    const first = f.writes.slice(2).join('\n').split('\n');
    expect(first[0]).toBe('run started: cold-email (run)');
    expect(first).toContain('     iteration 0: baseline');
    expect(first).toContain('     iteration 0: judging 0/3');
    expect(first.at(-1)).toMatch(
      /^ {3}0 {2}baseline {6}0\.433 {2}best 0\.433 +- +\$0\.09 +48s {2}the starting prompt$/,
    );

    let ended = false;
    void session.done.then(() => (ended = true));
    f.append(events.slice(baselineEnd));
    f.change();
    await flush();
    const rest = f.writes.slice(3).join('\n');
    expect(rest).toMatch(/^ {3}5 {2}keep {10}0\.933 {2}best 0\.933 {2}\+0\.333/m);
    expect(rest).toMatch(/^ {3}6 {2}duplicate/m);
    expect(rest).toContain('final check (fresh): train 0.429 → 0.922, holdout 0.433 → 0.927');
    expect(rest).toContain('run stopped (iterations): reached the iteration budget (7)');
    expect(rest).toContain('best 0.933 at iteration 5 (baseline 0.433); 7 iterations; $0.46 spent');
    expect(ended).toBe(true);
    expect(f.isClosed()).toBe(true);
    expect(f.timers.size).toBe(0);
  });

  it('summarises what the journal already held instead of replaying every phase', async () => {
    const f = fakes({ journal: events.slice(0, baselineEnd + 8) });
    startWatchSession(FIXTURE_RUN_ID, f.deps);
    await flush();
    const text = f.writes.join('\n');
    expect(text).toContain('run started: cold-email (run)');
    expect(text).not.toContain('iteration 0: baseline');
    expect(text).toMatch(/^ {3}0 {2}baseline/m);
    expect(text).toMatch(/iteration 1: \w+ \(in progress\)$/);
  });

  it('reads once more after each notification, for changes the watcher swallowed', async () => {
    const f = fakes({ journal: events.slice(0, 1) });
    startWatchSession(FIXTURE_RUN_ID, f.deps);
    await flush();
    f.change();
    await flush();
    const before = f.writes.length;
    f.append(events.slice(1, baselineEnd));
    f.settle();
    await flush();
    expect(f.writes.length).toBeGreaterThan(before);
    expect(f.writes.at(-1)).toMatch(/0 {2}baseline/);
  });

  it('catches up on the periodic poll when a change notification is lost', async () => {
    const f = fakes({ journal: events.slice(0, 1) });
    startWatchSession(FIXTURE_RUN_ID, f.deps);
    await flush();
    const before = f.writes.length;
    f.append(events.slice(1, baselineEnd));
    f.tick(5000);
    await flush();
    expect(f.writes.length).toBeGreaterThan(before);
    expect(f.writes.at(-1)).toMatch(/0 {2}baseline/);
  });

  it('leaves early on close', async () => {
    const f = fakes();
    const session = startWatchSession(FIXTURE_RUN_ID, f.deps);
    await session.close();
    await session.done;
    expect(f.isClosed()).toBe(true);
  });
});

describe('startWatchSession on a TTY', () => {
  it('redraws one frame in place, on changes and every second', async () => {
    const f = fakes({ tty: true, journal: events.slice(0, baselineEnd + 5) });
    startWatchSession(FIXTURE_RUN_ID, f.deps);
    await flush();
    const first = f.writes.at(-1) ?? '';
    expect(first.startsWith('\u001b[')).toBe(false);
    expect(first).toContain('autoresearch watch  20261129-2230-cold-email-k3f9  cold-email');
    expect(first).toMatch(/now {9}iteration 1, checking {2}for 25s/);

    f.advance(7000);
    f.tick(1000);
    const lines = first.split('\n').length;
    const second = f.writes.at(-1) ?? '';
    expect(f.writes.at(-2)).toBe(`<rewind ${lines}>`);
    expect(second).not.toBe(first);

    f.append(events.slice(baselineEnd + 5));
    f.change();
    await flush();
    expect(f.writes.at(-1)).toMatch(/now {9}stopped \(iterations\)/);
    expect(f.timers.size).toBe(0);
  });
});
