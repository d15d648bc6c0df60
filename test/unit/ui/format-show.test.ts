import pc from 'picocolors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOverview } from '../../../src/report/overview.js';
import { reduceRun } from '../../../src/run/reducer.js';
import { formatDuration } from '../../../src/ui/format-figures.js';
import { formatShow, formatShowJson } from '../../../src/ui/format-show.js';
import { planFixtureRun } from '../../helpers/fixture-run.js';
import { cleanUpScriptedRuns } from '../../helpers/loop-harness.js';
import { runPairedScenario } from '../../helpers/paired-run.js';
import type { RunState } from '../../../src/run/run-state.js';

const plain = pc.createColors(false);
const full = reduceRun(planFixtureRun().events);
const fullOverview = buildOverview(full, { id: '20261129-2230-cold-email-k3f9', liveLock: false });
const sparse = reduceRun(planFixtureRun({ scenario: 'sparse', running: true }).events);
const sparseOverview = buildOverview(sparse, { id: '20261128-0915-cold-email-s1p2', liveLock: true });

describe('formatShow', () => {
  it('prints the header and the iteration table of a finished run', () => {
    expect(formatShow(fullOverview, full.iterations, { width: 120, colors: plain })).toMatchInlineSnapshot(`
      "Run         20261129-2230-cold-email-k3f9 (run of cold-email)
      Status      finished: iterations (reached the iteration budget (7))
      Train       0.429 → 0.922 (+0.493) at iteration 5, fresh final evaluation
      Holdout     0.433 → 0.927 (+0.494) at iteration 5, fresh final evaluation
      During run  train 0.433 → 0.933, holdout 0.433 → 0.933
      Noise       ±0.033 train, ±0.005 holdout
      Cost        $0.46 over 74 calls, 3m 53s active
      Ledger      generator  33 calls; $0.2663
                  mutator    8 calls; $0.0978
                  judge      33 calls; $0.0968
      Branch      autoresearch/cold-email/20261129-2230-cold-email-k3f9
      Iterations  7 finished: 2 keep, 1 discard, 1 gate_fail, 1 holdout_fail, 1 duplicate, 1 error

      ITER  STATUS        TRAIN  HOLDOUT   DELTA  CHECKS  JUDGE  EXPECT   COST  SECS  COMMIT   HYPOTHESIS
         0  baseline      0.433    0.433       -   0.750  0.333   0.000  $0.09    48           the starting prompt
         1  keep          0.600    0.700  +0.167   0.750  0.500   0.500  $0.05    27  4b1d3a9  Open with the recipient's own …
         2  discard       0.433    0.533  -0.167   0.500  0.333   0.500  $0.05    34           Add social proof: three custom…
         3  gate_fail     0.500    0.600  -0.100   0.500  0.500   0.500  $0.05    41           Drop the subject line so the e…
         4  error             -        -       -       -      -       -  $0.05    48           judge_error: judge-scores.json…
         5  keep          0.933    0.933  +0.333   1.000  0.833   1.000  $0.07    55  9e7c21d  Cut buzzwords and end with a c…
         6  duplicate         -        -       -       -      -       -  $0.05    62           Add social proof: three custom…
         7  holdout_fail  0.967    0.567  +0.033   1.000  0.917   1.000  $0.05    69           Mention the prospect's company…"
    `);
  });

  it('leads with the sealed test split when the final evaluation scored one', () => {
    const final = fullOverview.final;
    if (!final) throw new Error('the fixture run has a final evaluation');
    const tested = {
      ...fullOverview,
      final: { baseline: { ...final.baseline, test: 0.4 }, best: { ...final.best, test: 0.85 } },
    };
    const lines = formatShow(tested, full.iterations, { width: 120, colors: plain }).split('\n');
    expect(lines.slice(2, 5)).toEqual([
      'Test        0.400 → 0.850 (+0.450) at iteration 5, sealed: scored only by the final evaluation',
      'Train       0.429 → 0.922 (+0.493) at iteration 5, fresh final evaluation',
      'Holdout     0.433 → 0.927 (+0.494) at iteration 5, fresh final evaluation',
    ]);
  });

  it('labels simulated runs, drops absent signals and says what is in progress', () => {
    expect(
      formatShow(sparseOverview, sparse.iterations, { width: 100, colors: plain }),
    ).toMatchInlineSnapshot(`
      "Run         20261128-0915-cold-email-s1p2 (run of cold-email)
      Status      running
      Train       0.750 → 1.000 (+0.250) at iteration 1, as decided during the run
      Holdout     0.750 → 1.000 (+0.250) at iteration 1, as decided during the run
      Noise       ±0.005 train, ±0.005 holdout
      Cost        $0.14 over 11 calls, 53s active
      Ledger      generator  9 calls; $0.1106
                  mutator    2 calls; $0.0270
      Branch      autoresearch/cold-email/20261128-0915-cold-email-s1p2
      Iterations  2 finished: 1 keep, 1 error
      Simulated   generator, mutator: these figures say nothing about real models

      ITER  STATUS    TRAIN  HOLDOUT   DELTA  CHECKS   COST  SECS  COMMIT   HYPOTHESIS
         0  baseline  0.750    0.750       -   0.750  $0.09    48           the starting prompt
         1  keep      1.000    1.000  +0.250   1.000  $0.05    27  4b1d3a9  Lead with the pain point and …
         2  error         -        -       -       -  $0.05    34           provider_error: HTTP 529 over…
      iteration 3 in progress, generating 2/3"
    `);
  });

  it('fits narrow terminals: the hypothesis shrinks, then the least useful columns go', () => {
    for (const width of [100, 80, 60, 44]) {
      const table =
        formatShow(fullOverview, full.iterations, { width, colors: plain }).split('\n\n')[1] ?? '';
      for (const line of table.split('\n')) expect(line.length).toBeLessThanOrEqual(width);
    }
    const narrow =
      formatShow(fullOverview, full.iterations, { width: 60, colors: plain }).split('\n\n')[1] ?? '';
    expect(narrow.split('\n')[0]).toMatch(/^ITER {2}STATUS {8}TRAIN {3}DELTA {2}HYPOTHESIS$/);
  });

  it('colours only when asked', () => {
    const coloured = formatShow(fullOverview, full.iterations, { width: 120, colors: pc.createColors(true) });
    expect(coloured).toContain('\u001b[32mkeep');
    expect(formatShow(fullOverview, full.iterations, { width: 120, colors: plain })).not.toContain('\u001b[');
  });

  it('says so when nothing has finished', () => {
    const empty = reduceRun([]);
    expect(
      formatShow(buildOverview(empty, { id: 'x', liveLock: false }), [], { width: 80, colors: plain }),
    ).toContain('No iteration has finished yet.');
  });
});

describe('formatShow on a paired run', () => {
  let paired: RunState;
  beforeAll(async () => {
    paired = (await runPairedScenario()).recorder.state();
  });
  afterAll(cleanUpScriptedRuns);
  const show = (width: number, colors = plain) =>
    formatShow(buildOverview(paired, { id: 'paired', liveLock: false }), paired.iterations, {
      width,
      colors,
    });

  it('gives each decision its interval and per-case tally, and a screen-out its minibatch and saved calls', () => {
    expect(show(120).split('\n\n')[1]).toMatchInlineSnapshot(`
      "ITER  STATUS        TRAIN  HOLDOUT   DELTA          INTERVAL     CASES  CHECKS   COST  SECS  HYPOTHESIS
         0  baseline      0.400    0.700       -                 -         -   0.400  $0.00     0  the starting prompt
         1  screened_out      -        -       -  minibatch -0.200         -   0.200  $0.00     0  2 calls saved: Swap alpha …
         2  keep          0.733    0.900  +0.333   [+0.139,+0.528]  3↑ 0↓ 0=   0.733  $0.00     0  Add charlie and delta.
         3  inconclusive  0.733    0.900  ±0.000   [-0.337,+0.337]  1↑ 1↓ 1=   0.733  $0.00     0  Trade charlie for bravo.
      INTERVAL: the train mean difference against the incumbent, one-sided 95% bounds. A screened-out row: the mean difference
      on its minibatch. CASES: train cases better ↑, worse ↓, the same =."
    `);
    expect(show(120)).toContain(
      'Iterations  3 finished: 1 keep, 1 inconclusive, 1 screened_out; screening saved 2 calls',
    );
  });

  it('keeps the interval longest when the terminal is narrow', () => {
    for (const width of [100, 80, 60, 44]) {
      for (const line of show(width).split('\n')) expect(line.length).toBeLessThanOrEqual(width);
    }
    const table = show(80).split('\n\n')[1] ?? '';
    expect(table.split('\n')[0]).toMatch(/^ITER {2}STATUS {8}TRAIN {3}DELTA {10}INTERVAL {2}HYPOTHESIS$/);
    expect(table).toContain('[+0.139,+0.528]');
  });

  it('paints an interval wholly above zero green', () => {
    expect(show(120, pc.createColors(true))).toMatch(/\u001b\[32m *\[\+0\.139,\+0\.528\]/);
  });

  it('carries the intervals and screens in --json', () => {
    const json = JSON.parse(
      formatShowJson(buildOverview(paired, { id: 'paired', liveLock: false }), paired.iterations),
    );
    expect(json.run.callsSaved).toBe(2);
    expect(json.iterations[1]).toMatchObject({
      status: 'screened_out',
      paired: null,
      screen: { passed: false, callsSaved: 2 },
    });
    expect(json.iterations[3]).toMatchObject({
      status: 'inconclusive',
      paired: { looks: 2, wins: 1, losses: 1, ties: 1, train: { n: 3, lo: expect.closeTo(-0.337, 3) } },
    });
  });
});

describe('formatShowJson', () => {
  it('has a stable shape: format, run overview, iterations', () => {
    const json = JSON.parse(formatShowJson(fullOverview, full.iterations));
    expect(Object.keys(json)).toEqual(['format', 'run', 'iterations']);
    expect(json.format).toBe('autoresearch.show/v1');
    expect(Object.keys(json.run)).toEqual([
      'id',
      'experiment',
      'kind',
      'status',
      'stopReason',
      'stopMessage',
      'startedAt',
      'endedAt',
      'activeSeconds',
      'branch',
      'simulated',
      'baseline',
      'best',
      'final',
      'noiseMargin',
      'judgeAnchors',
      'warnings',
      'iterations',
      'counts',
      'callsSaved',
      'costUsd',
      'calls',
      'costByRole',
      'spendAlerts',
      'current',
    ]);
    expect(Object.keys(json.iterations[0])).toEqual([
      'iteration',
      'status',
      'strategy',
      'candidate',
      'train',
      'holdout',
      'delta',
      'paired',
      'screen',
      'incumbentBefore',
      'best',
      'signals',
      'gateFailure',
      'hypothesis',
      'commit',
      'costUsd',
      'seconds',
      'errorKind',
      'message',
      'attempts',
    ]);
    expect(json.iterations[5]).toMatchObject({
      iteration: 5,
      status: 'keep',
      candidate: 1,
      commit: expect.stringMatching(/^9e7c21d0ab/),
    });
  });
});

describe('formatDuration', () => {
  it('reads at a glance', () => {
    expect([0, 48, 60, 185, 3599, 3600, 7620].map(formatDuration)).toEqual([
      '0s',
      '48s',
      '1m 00s',
      '3m 05s',
      '59m 59s',
      '1h 00m',
      '2h 07m',
    ]);
  });
});

describe('a run started with --from', () => {
  const from = {
    runId: '20261128-0915-cold-email-s1p2',
    experiment: 'cold-email',
    take: 'member' as const,
    member: 'p3',
    iteration: 4,
    promptSha256: 'ab12'.repeat(16),
    train: 0.7123,
    commit: '9e7c21d'.padEnd(40, '0'),
    ref: 'refs/autoresearch/cold-email/20261128-0915-cold-email-s1p2/pool/p3',
    text: 'Write a short email.',
  };
  const overview = buildOverview(full, { id: '20261129-2230-cold-email-k3f9', liveLock: false, from });

  it('names the source under Run: member, iteration, its score there, commit and digest', () => {
    const lines = formatShow(overview, full.iterations, { width: 200, colors: plain }).split('\n');
    expect(lines[1]).toBe(
      'From        pool member p3 of run 20261128-0915-cold-email-s1p2 (iteration 4), train 0.712 there, commit 9e7c21d00000 (prompt ab12ab12ab12, evaluated afresh as the baseline)',
    );
  });

  it('puts it in --json without the prompt text; a run without it has no such key', () => {
    const json = JSON.parse(formatShowJson(overview, full.iterations));
    const { text: _text, ...shown } = from;
    expect(json.run.from).toEqual(shown);
    expect(JSON.parse(formatShowJson(fullOverview, full.iterations)).run).not.toHaveProperty('from');
  });
});
