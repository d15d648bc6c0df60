import pc from 'picocolors';
import { describe, expect, it } from 'vitest';
import { countChars } from '../../../src/loop/text.js';
import { BatchSubmitted } from '../../../src/run/events.js';
import { RECORD_VERSION } from '../../../src/run/record-version.js';
import { reduceRun } from '../../../src/run/reducer.js';
import type { IterationRecord } from '../../../src/run/run-state.js';
import { formatEvent, formatIterationLine } from '../../../src/ui/event-text.js';
import type { ProgressColors } from '../../../src/ui/progress-line.js';
import { attachRunRenderer } from '../../../src/ui/run-renderer.js';
import type { Terminal } from '../../../src/ui/terminal.js';
import { describeEvents } from '../../../src/ui/watch-view.js';
import { planFixtureRun } from '../../helpers/fixture-run.js';

const plain = pc.createColors(false);
const tagged: ProgressColors = {
  green: (t) => `<green>${t}</green>`,
  red: (t) => `<red>${t}</red>`,
  yellow: (t) => `<yellow>${t}</yellow>`,
  cyan: (t) => `<cyan>${t}</cyan>`,
  dim: (t) => `<dim>${t}</dim>`,
  bold: (t) => `<bold>${t}</bold>`,
};
const events = planFixtureRun().events;
const state = reduceRun(events);
const kept = state.iterations.find((r) => r.iteration === 5) as IterationRecord;
const record: IterationRecord = {
  ...kept,
  hypothesis: 'A hard word limit in the first line\nmakes the word-count check pass without hurting clarity.',
};

describe('formatIterationLine', () => {
  it('shows number, status, score, best, delta, cost, time and the text on one line', () => {
    expect(formatIterationLine(record, { width: 200, colors: plain })).toBe(
      '   5  keep          0.933  best 0.933  +0.333   $0.07      55s  A hard word limit in the first line makes the word-count check pass without hurting clarity.',
    );
  });

  it('cuts the text to fit the width, never the numbers', () => {
    for (const width of [62, 72, 80, 100, 120]) {
      const text = formatIterationLine(record, { width, colors: plain });
      expect(countChars(text)).toBeLessThanOrEqual(width);
      expect(text).toContain('+0.333');
    }
    expect(formatIterationLine(record, { width: 80, colors: plain }).endsWith('…')).toBe(true);
    const narrow = formatIterationLine(record, { width: 40, colors: plain });
    expect(narrow).toBe('   5  keep          0.933  best 0.933  +0.333   $0.07      55s');
    expect(formatIterationLine(record, { width: 71, colors: plain })).toBe(narrow);
    expect(formatIterationLine(record, { width: 72, colors: plain })).toBe(`${narrow}  A hard …`);
  });

  it('colours the status only, and measures width without the colour codes', () => {
    const text = formatIterationLine(record, { width: 80, colors: tagged });
    expect(text).toContain('<green>keep        </green>');
    expect(countChars(text.replace(/<\/?green>/g, ''))).toBeLessThanOrEqual(80);
    const statuses = {
      gate_fail: 'red',
      error: 'red',
      holdout_fail: 'yellow',
      discard: 'dim',
      baseline: 'cyan',
    };
    for (const [status, colour] of Object.entries(statuses))
      expect(
        formatIterationLine(
          { ...record, status: status as IterationRecord['status'] },
          { width: 80, colors: tagged },
        ),
      ).toContain(`<${colour}>${status}`);
  });

  it('shows missing scores and deltas as such', () => {
    const text = formatIterationLine(
      { ...record, status: 'duplicate', train: null, delta: null, hypothesis: null },
      { width: 100, colors: plain },
    );
    expect(text).toBe('   5  duplicate         -  best 0.933       -   $0.07      55s');
  });
});

/** A terminal that records what `run` would print where. */
function recordingTerminal(width: number): Terminal & { written: string[] } {
  const written: string[] = [];
  return {
    written,
    out: (text) => written.push(`out: ${text}`),
    err: (text) => written.push(`err: ${text}`),
    status: (text) => written.push(`status: ${text}`),
    rewind: () => undefined,
    colors: plain,
    isTTY: true,
    errIsTTY: true,
    width,
  };
}

describe('one formatter for run and watch', () => {
  it('gives `run` and `watch` the same words for the same events', () => {
    const tail = events.slice(events.findIndex((e) => e.type === 'iteration_started' && e.iteration === 7));
    const term = recordingTerminal(100);
    const render = attachRunRenderer(term);
    for (const event of tail) render(event, state);
    const watched = describeEvents(tail, state, {
      width: 100,
      colors: plain,
      history: false,
      lastPhase: new Map(),
    });
    const row = formatIterationLine(state.iterations.find((r) => r.iteration === 7) as IterationRecord, {
      width: 100,
      colors: plain,
    });
    expect(term.written).toContain(`out: ${row}`);
    expect(watched).toContain(row);
    // Each phase: `  … text` on run's status line, `     text` in watch's log.
    const phases = term.written.filter((line) => line.startsWith('status:   … '));
    expect(phases).toHaveLength(7);
    expect(phases.map((line) => `     ${line.slice('status:   … '.length)}`)).toEqual(
      watched.filter((line) => line.startsWith('     ')),
    );
    expect(term.written).toContain('status: ');
  });

  it('shows a batch wait on both, and shows nothing for the journal’s bookkeeping', () => {
    const at = '2026-11-29T23:00:00.000Z';
    const batch = BatchSubmitted.parse({
      v: RECORD_VERSION,
      at,
      type: 'batch_submitted',
      iteration: 3,
      provider: 'anthropic',
      model: 'claude-haiku-4-5',
      batchId: 'msgbatch_1',
      requests: 12,
    });
    const term = recordingTerminal(100);
    attachRunRenderer(term)(batch, state);
    expect(term.written).toEqual([
      'status:   … iteration 3: waiting on anthropic batch msgbatch_1 (12 requests)',
    ]);
    expect(
      describeEvents([batch], state, { width: 100, colors: plain, history: false, lastPhase: new Map() }),
    ).toEqual(['     iteration 3: waiting on anthropic batch msgbatch_1 (12 requests)']);
    const started = events.find((e) => e.type === 'iteration_started');
    if (started === undefined) throw new Error('the fixture run starts iterations');
    expect(formatEvent(started, { width: 100, colors: plain, state })).toBeUndefined();
  });
});
