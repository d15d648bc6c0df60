import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../../src/run/events.js';
import { reduceRun } from '../../../src/run/reducer.js';
import { formatIterationHeader, formatIterationLine } from '../../../src/ui/event-text.js';
import { describeRunProgress, runProgress } from '../../../src/ui/run-progress.js';
import { planFixtureRun } from '../../helpers/fixture-run.js';

const plain = {
  green: (s: string) => s,
  red: (s: string) => s,
  yellow: (s: string) => s,
  dim: (s: string) => s,
  bold: (s: string) => s,
  cyan: (s: string) => s,
  magenta: (s: string) => s,
} as never;

/** The sparse fixture left running: its last iteration is under way. */
function running(): { events: RunEvent[]; open: number; at: Date } {
  const { events } = planFixtureRun({ scenario: 'sparse', running: true });
  const state = reduceRun(events);
  return {
    events,
    open: state.open?.iteration as number,
    at: new Date(Date.parse(events.at(-1)?.at as string) + 5000),
  };
}

describe('runProgress', () => {
  it('counts the iteration under way against the budget and paces the rest on the finished ones', () => {
    const { events, open, at } = running();
    const state = reduceRun(events);
    const paced = state.iterations.filter((r) => r.status !== 'baseline' && r.status !== 'interrupted');
    const pace = paced.reduce((sum, r) => sum + r.seconds, 0) / paced.length;
    const progress = runProgress(state, { iterations: 10 }, at);
    expect(progress).not.toBeNull();
    expect(progress?.iteration).toBe(open);
    expect(progress?.of).toBe(10);
    const sinceStart = (at.getTime() - Date.parse(state.open?.startedAt as string)) / 1000;
    const expected = (10 - state.completedIterations) * pace - Math.min(sinceStart, pace);
    expect(progress?.leftSeconds).toBeCloseTo(expected, 6);
    expect(progress?.hoursBind).toBe(false);
    expect(describeRunProgress(progress!)).toMatch(
      new RegExp(`^${open} of 10 iterations, \\S+ active, at most ~\\S+( \\S+)? left$`),
    );
  });

  it('says when the hours budget ends the run before the iteration budget', () => {
    const { events, at } = running();
    const state = reduceRun(events);
    const progress = runProgress(state, { iterations: 1000, hours: 1 }, at)!;
    expect(progress.hoursBind).toBe(true);
    expect(progress.leftSeconds).toBeCloseTo(3600 - progress.activeSeconds, 6);
    expect(describeRunProgress(progress)).toContain('(the hours budget ends it)');
  });

  it('has no estimate before an iteration after the baseline finished, and nothing between iterations', () => {
    const { events } = running();
    const baselineOnly = events.slice(0, events.findIndex((e) => e.type === 'iteration_finished') + 1);
    const started = {
      ...baselineOnly.at(-1)!,
      type: 'iteration_started',
      iteration: 1,
      strategy: 'focused',
    } as RunEvent;
    const state = reduceRun([...baselineOnly, started]);
    const progress = runProgress(state, { iterations: 5 }, new Date(Date.parse(started.at) + 1000))!;
    expect(progress.leftSeconds).toBeNull();
    expect(describeRunProgress(progress)).toMatch(/^1 of 5 iterations, \S+ active$/);
    expect(runProgress(reduceRun(baselineOnly), { iterations: 5 }, new Date())).toBeNull();
  });
});

describe('formatIterationHeader', () => {
  it('puts each header over its column, and shrinks with the width as the rows do', () => {
    const state = reduceRun(planFixtureRun().events);
    const row = formatIterationLine(state.iterations[1]!, { width: 200, colors: plain });
    const header = formatIterationHeader(200);
    expect(header).toBe(
      'ITER  STATUS        TRAIN  BEST         DELTA    COST     TIME  DECISION · HYPOTHESIS',
    );
    // Each header ends where its column's cells end (numbers right-aligned, words left), and the
    // row's text starts under DECISION.
    const at = (word: string) => header.indexOf(word);
    expect(row.slice(0, 4)).toBe('   1');
    expect(row.slice(at('TRAIN'), at('TRAIN') + 5)).toMatch(/^\d\.\d{3}$/);
    expect(row.slice(at('BEST'), at('BEST') + 4)).toBe('best');
    expect(row.slice(at('DELTA') + 5 - 6, at('DELTA') + 5)).toMatch(/^[+-±]\d\.\d{3}$/);
    expect(row[at('DECISION') - 1]).toBe(' ');
    expect(row[at('DECISION')]).not.toBe(' ');
    expect(formatIterationHeader(70).length).toBeLessThanOrEqual(70);
    expect(formatIterationHeader(64)).not.toContain('DECISION');
  });
});
