import pc from 'picocolors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../../src/run/events.js';
import { reduceRun } from '../../../src/run/reducer.js';
import { cutVisible } from '../../../src/ui/fit-text.js';
import { formatIterationLine } from '../../../src/ui/event-text.js';
import { describeEvents, renderWatchFrame } from '../../../src/ui/watch-view.js';
import { FIXTURE_RUN_ID, planFixtureRun } from '../../helpers/fixture-run.js';
import { cleanUpScriptedRuns } from '../../helpers/loop-harness.js';
import { runPairedScenario } from '../../helpers/paired-run.js';

const plain = pc.createColors(false);
const events = planFixtureRun().events;
const midway = events.slice(
  0,
  events.findIndex((e) => e.type === 'iteration_started' && e.iteration === 6) + 3,
);

describe('renderWatchFrame', () => {
  it('shows the phase, best so far, spend and the last iterations', () => {
    const state = reduceRun(midway);
    expect(
      renderWatchFrame(FIXTURE_RUN_ID, state, new Date('2026-11-29T22:33:30.000Z'), {
        width: 100,
        colors: plain,
      }),
    ).toMatchInlineSnapshot(`
      "autoresearch watch  20261129-2230-cold-email-k3f9  cold-email
      now         iteration 6, mutating  for 37s
      best        0.933 at iteration 5 (+0.500 over baseline 0.433), holdout 0.933
      spend       $0.35 over 60 calls, 3m 30s active
      iterations  5 finished: 2 keep, 1 discard, 1 gate_fail, 1 error

      ITER  STATUS        TRAIN  BEST         DELTA    COST     TIME  DECISION · HYPOTHESIS
         0  baseline      0.433  best 0.433       -   $0.09      48s  the starting prompt
         1  keep          0.600  best 0.600  +0.167   $0.05      27s  Open with the recipient's own pain…
         2  discard       0.433  best 0.600  -0.167   $0.05      34s  Add social proof: three customer n…
         3  gate_fail     0.500  best 0.600  -0.100   $0.05      41s  Drop the subject line so the email…
         4  error             -  best 0.600       -   $0.05      48s  judge_error: judge-scores.json was…
         5  keep          0.933  best 0.933  +0.333   $0.07      55s  Cut buzzwords and end with a concr…

      Ctrl-C leaves this view; the run keeps going."
    `);
  });

  it('waits politely before the journal exists', () => {
    expect(renderWatchFrame(FIXTURE_RUN_ID, null, new Date(), { width: 80, colors: plain })).toBe(
      `autoresearch watch  ${FIXTURE_RUN_ID}\nwaiting for the run to write its journal…`,
    );
  });

  it('never draws a line as wide as the terminal', () => {
    const frame = renderWatchFrame(FIXTURE_RUN_ID, reduceRun(events), new Date(), {
      width: 50,
      colors: pc.createColors(true),
    });
    for (const line of frame.split('\n'))
      expect(line.replace(/\u001b\[[0-9;]*m/g, '').length).toBeLessThan(50);
  });
});

describe('describeEvents', () => {
  it('prints a line per phase change and per finished iteration, and a summary at the stop', () => {
    const state = reduceRun(events);
    const tail = events.slice(events.findIndex((e) => e.type === 'iteration_started' && e.iteration === 7));
    const lines = describeEvents(tail, state, {
      width: 100,
      colors: plain,
      history: false,
      lastPhase: new Map(),
    });
    expect(lines).toMatchInlineSnapshot(`
      [
        "     iteration 7: mutating",
        "     iteration 7: generating 0/3",
        "     iteration 7: checking",
        "     iteration 7: judging 0/3",
        "     iteration 7: grading",
        "     iteration 7: deciding",
        "   7  holdout_fail  0.967  best 0.933  +0.033   $0.05   1m 09s  Mention the prospect's company in e…",
        "     final check: baseline and best evaluated again with fresh samples",
        "final check (fresh): train 0.429 → 0.922, holdout 0.433 → 0.927",
        "run stopped (iterations): reached the iteration budget (7)",
        "best 0.933 at iteration 5 (baseline 0.433); 7 iterations; $0.46 spent",
      ]
    `);
  });

  it('leads the final check with the sealed test split when it was scored', () => {
    const state = reduceRun(events);
    const final = events.find((e) => e.type === 'final_evaluation');
    if (final?.type !== 'final_evaluation') throw new Error('the fixture run has a final evaluation');
    const tested = {
      ...final,
      baseline: { ...final.baseline, test: 0.4 },
      best: { ...final.best, test: null },
    };
    const lines = describeEvents([tested], state, {
      width: 100,
      colors: plain,
      history: false,
      lastPhase: new Map(),
    });
    expect(lines).toEqual([
      'final check (fresh): test 0.400 → -, train 0.429 → 0.922, holdout 0.433 → 0.927',
    ]);
  });
});

describe('formatIterationLine', () => {
  it('shows an error by its kind and message', () => {
    const error = reduceRun(events).iterations.find((r) => r.status === 'error')!;
    expect(formatIterationLine(error, { width: 200, colors: plain })).toBe(
      '   4  error             -  best 0.600       -   $0.05      48s  judge_error: judge-scores.json was invalid after 3 attempts: output_01.txt scored twice',
    );
  });
});

describe('a paired run', () => {
  let paired: readonly RunEvent[];
  beforeAll(async () => {
    paired = (await runPairedScenario()).events;
  });
  afterAll(cleanUpScriptedRuns);
  const at = new Date('2026-11-29T23:00:00.000Z');

  it('shows each decision with its interval and tally, a screen-out with its minibatch and saved calls', () => {
    const frame = renderWatchFrame('paired', reduceRun(paired), at, { width: 120, colors: plain });
    // The scenario runs the default pareto search: its pool has a line of its own.
    expect(frame.split('\n')[3]).toBe('pool        2 members, best p1; merges: none attempted yet');
    expect(frame.split('\n').slice(5)).toMatchInlineSnapshot(`
      [
        "iterations  3 finished: 1 screened_out, 1 keep, 1 inconclusive; screening saved 2 calls",
        "",
        "ITER  STATUS        TRAIN  BEST         DELTA    COST     TIME  DECISION · HYPOTHESIS",
        "   0  baseline      0.400  best 0.400       -   $0.00       0s  the starting prompt",
        "   1  screened_out      -  best 0.400       -   $0.00       0s  minibatch -0.200 on 2 cases, 2 calls saved: Swap alpha…",
        "   2  keep          0.733  best 0.733  +0.333   $0.00       0s  [+0.139,+0.528] 3↑ 0↓ 0= · Add charlie and delta.",
        "   3  inconclusive  0.733  best 0.733  ±0.000   $0.00       0s  [-0.337,+0.337] 1↑ 1↓ 1= · Trade charlie for bravo.",
      ]
    `);
  });

  it("says a retest is under way, through the retest's own phases", () => {
    const retest = paired.findIndex((e) => e.type === 'phase' && e.phase === 'retesting');
    const during = (n: number) =>
      renderWatchFrame('paired', reduceRun(paired.slice(0, retest + n)), at, {
        width: 120,
        colors: plain,
      }).split('\n')[1];
    expect(during(1)).toBe(
      'now         iteration 3, retesting (fresh samples for candidate and incumbent)  for 0s',
    );
    expect(during(2)).toMatch(/^now {9}iteration 3, retest generating/);
    const lines = describeEvents(paired.slice(retest, retest + 1), reduceRun(paired), {
      width: 120,
      colors: plain,
      history: false,
      lastPhase: new Map(),
    });
    expect(lines).toEqual(['     iteration 3: retesting (fresh samples for candidate and incumbent)']);
  });
});

describe('cutVisible', () => {
  it('cuts by visible characters and keeps colour codes intact', () => {
    expect(cutVisible('abcdef', 4)).toBe('abc…');
    expect(cutVisible('abcd', 4)).toBe('abcd');
    expect(cutVisible('\u001b[32mabcdef\u001b[39m', 3)).toBe('\u001b[32mab…\u001b[0m');
    expect(cutVisible('\u001b[32mab\u001b[39m', 2)).toBe('\u001b[32mab\u001b[39m');
  });
});
