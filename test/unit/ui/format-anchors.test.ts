/**
 * Drift anchors (docs/design/judge-reliability.md) as `show` and `watch` print them: the journal of
 * a finished run with the baseline's judge noise and two drift checks — the second beyond noise,
 * with its warning.
 */
import pc from 'picocolors';
import { describe, expect, it } from 'vitest';
import { buildOverview } from '../../../src/report/overview.js';
import { RECORD_VERSION } from '../../../src/run/record-version.js';
import type { RunEvent } from '../../../src/run/events.js';
import { reduceRun } from '../../../src/run/reducer.js';
import { describeJudgeAnchors } from '../../../src/ui/format-anchors.js';
import { formatShow } from '../../../src/ui/format-show.js';
import { describeEvents } from '../../../src/ui/watch-view.js';
import { planFixtureRun } from '../../helpers/fixture-run.js';

const plain = pc.createColors(false);
const at = '2026-11-29T23:30:00.000Z';
const anchors = (now: number) =>
  ['a', 'b', 'c', 'd'].map((caseId) => ({ caseId, sample: 0, baseline: 0.5, now }));

const ANCHOR_EVENTS: RunEvent[] = [
  {
    v: RECORD_VERSION,
    at,
    type: 'judge_noise',
    iteration: 0,
    anchors: anchors(0.5),
    noise: 0.0625,
    decisionNoise: 0.018,
  },
  {
    v: RECORD_VERSION,
    at,
    type: 'judge_drift',
    iteration: 3,
    baseline: 0,
    anchors: anchors(0.5),
    mean: 0,
    lo: 0,
    hi: 0,
    band: 0.0625,
    beyondNoise: false,
  },
  {
    v: RECORD_VERSION,
    at,
    type: 'judge_drift',
    iteration: 6,
    baseline: 0,
    anchors: anchors(0.75),
    mean: 0.25,
    lo: 0.2,
    hi: 0.3,
    band: 0.0625,
    beyondNoise: true,
  },
  { v: RECORD_VERSION, at, type: 'warning', iteration: 6, message: 'judge drift: the anchors moved' },
];

/** The fixture run's journal with the anchor events inserted before its stop. */
function journal(): RunEvent[] {
  const events = planFixtureRun().events;
  const stop = events.findIndex((e) => e.type === 'run_stopped');
  return [...events.slice(0, stop), ...ANCHOR_EVENTS, ...events.slice(stop)];
}

describe('drift anchors in show', () => {
  it('gives the judge noise and the drift checks a header field, and lists the warnings', () => {
    const state = reduceRun(journal());
    const overview = buildOverview(state, { id: '20261129-2230-cold-email-k3f9', liveLock: false });
    expect(overview.judgeAnchors.checks.map((c) => [c.iteration, c.beyondNoise])).toEqual([
      [3, false],
      [6, true],
    ]);
    const lines = formatShow(overview, state.iterations, { width: 400, colors: plain }).split('\n');
    expect(lines.find((line) => line.startsWith('Judge'))).toBe(
      'Judge       noise ±0.063 per output, ±0.018 in a decision (4 anchors re-judged); 2 drift checks, the last at iteration 6: drift +0.250 [+0.200,+0.300] on 4 anchors: BEYOND the judge noise (±0.063); beyond noise at iteration 6',
    );
    expect(lines.find((line) => line.startsWith('Warning'))).toBe(
      'Warning     iteration 6: judge drift: the anchors moved',
    );
  });

  it('leaves the field out of a run that read no anchors', () => {
    const state = reduceRun(planFixtureRun().events);
    expect(describeJudgeAnchors(state.judgeAnchors)).toBeNull();
    const text = formatShow(buildOverview(state, { id: 'x', liveLock: false }), state.iterations, {
      width: 200,
      colors: plain,
    });
    expect(text).not.toMatch(/^Judge/m);
  });
});

describe('drift anchors in watch', () => {
  it('prints a line per reading and the warning', () => {
    const events = journal();
    const lines = describeEvents(ANCHOR_EVENTS, reduceRun(events), {
      width: 300,
      colors: plain,
      history: false,
      lastPhase: new Map(),
    });
    expect(lines).toEqual([
      '     iteration 0: judge noise ±0.063 per output, ±0.018 in a decision (4 anchors re-judged)',
      '     iteration 3: judge drift ±0.000 [±0.000,±0.000] on 4 anchors: within the judge noise (±0.063)',
      '     iteration 6: judge drift +0.250 [+0.200,+0.300] on 4 anchors: BEYOND the judge noise (±0.063)',
      'warning: judge drift: the anchors moved',
    ]);
  });
});
