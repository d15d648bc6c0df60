import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildReportData } from '../../../src/report/build-report-data.js';
import { readRunFolder } from '../../../src/report/read-run-folder.js';
import type { ReportData } from '../../../src/report/report-data.js';
import type { RunEvent } from '../../../src/run/events.js';
import { HOSTILE_IMG, HOSTILE_SCRIPT, writeFixtureRun } from '../../helpers/fixture-run.js';
import { cleanUpScriptedRuns } from '../../helpers/loop-harness.js';
import { runPairedScenario } from '../../helpers/paired-run.js';

const context = { now: new Date('2026-11-30T07:00:00.000Z'), toolVersion: '0.1.0' };
let runsDir: string;
let full: ReportData;
let sparse: ReportData;
let fullEvents: RunEvent[];

beforeAll(async () => {
  runsDir = await mkdtemp(join(tmpdir(), 'ar-report-data-'));
  const fullRun = await writeFixtureRun(runsDir);
  const sparseRun = await writeFixtureRun(runsDir, { scenario: 'sparse', running: true });
  fullEvents = fullRun.events;
  full = buildReportData(await readRunFolder(fullRun.dir), context);
  sparse = buildReportData(await readRunFolder(sparseRun.dir), context);
});
afterAll(async () => {
  await rm(runsDir, { recursive: true, force: true });
});

const iteration = (data: ReportData, n: number) => {
  const found = data.iterations.find((i) => i.iteration === n);
  if (!found) throw new Error(`no iteration ${n}`);
  return found;
};

describe('buildReportData on a finished overnight run', () => {
  it('heads the report with the fresh final evaluation, margins, spend and counts', () => {
    const o = full.overview;
    expect(o).toMatchObject({
      id: '20261129-2230-cold-email-k3f9',
      experiment: 'cold-email',
      status: 'finished',
      stopReason: 'iterations',
      branch: 'autoresearch/cold-email/20261129-2230-cold-email-k3f9',
      simulated: [],
      iterations: 7,
      current: null,
    });
    expect(o.final?.best).toEqual({ iteration: 5, train: 0.9223, holdout: 0.9273 });
    expect(o.best).toMatchObject({ iteration: 5, train: 0.9333 });
    expect(o.noiseMargin?.train).toBeCloseTo(0.0333, 4);
    expect(o.counts).toMatchObject({
      baseline: 1,
      keep: 2,
      discard: 1,
      gate_fail: 1,
      error: 1,
      duplicate: 1,
      holdout_fail: 1,
    });
    expect(o.costUsd).toBeCloseTo(0.4609, 4);
    expect(full.stamp).toBe(`${fullEvents.length}@${fullEvents.at(-1)?.at}`);
  });

  it('links each iteration to its parent and diffs the prompt against it', () => {
    expect(full.iterations.map((i) => [i.iteration, i.status, i.parent])).toEqual([
      [0, 'baseline', null],
      [1, 'keep', 0],
      [2, 'discard', 1],
      [3, 'gate_fail', 1],
      [4, 'error', 1],
      [5, 'keep', 1],
      [6, 'duplicate', 5],
      [7, 'holdout_fail', 5],
    ]);
    const kept = iteration(full, 5);
    expect(kept.diff).toMatchObject({ parent: 1, identical: false, added: 1, removed: 2 });
    const lines = kept.diff?.hunks.flatMap((h) => h.lines) ?? [];
    expect(lines).toContainEqual({
      op: 'add',
      text: 'End with one question proposing a 15-minute call next Tuesday.',
    });
    expect(lines).toContainEqual({ op: 'remove', text: 'Close by asking them to reply if interested.' });
    expect(iteration(full, 0).diff).toBeNull();
    expect(iteration(full, 0).prompt).toContain('Introduce Ledgerly');
  });

  it('keeps every proposal with its scores and marks the decided one', () => {
    const kept = iteration(full, 5);
    expect(kept.proposals.map((p) => [p.candidate, p.decided, p.train])).toEqual([
      [0, false, 0.7333],
      [1, true, 0.9333],
    ]);
    expect(kept.shownCandidate).toBe(1);
    expect(kept.reason).toMatch(/^train \+0\.333 vs margin 0\.033/);
    expect(kept.commit).toMatch(/^9e7c21d0ab/);
    expect(kept.criteria).toEqual({ call_to_action: 5, clarity: 4, personalization: 4 });
  });

  it("joins each case's output with its checks, judge scores (through judge-map.json) and grader verdicts", () => {
    const cases = iteration(full, 5).cases;
    expect(cases.map((c) => c.caseId)).toEqual(['agency-founder', 'bank-cfo', 'saas-cto']);
    // Each case says which split it is in, as its evaluation recorded it.
    expect(cases.map((c) => c.split)).toEqual(['train', 'holdout', 'train']);
    const agency = cases[0]!;
    expect(agency.samples[0]?.output).toContain(HOSTILE_SCRIPT);
    expect(agency.samples[0]?.output).toContain(HOSTILE_IMG);
    expect(agency.samples[0]?.checks.map((c) => [c.name, c.pass])).toEqual([
      ['starts-with "Subject:"', true],
      ['word-count ≤ 120', true],
      ['no buzzwords', true],
      ['greets by name', true],
    ]);
    expect(agency.samples[0]?.judge?.reasoning).toContain('Northwind Studio');
    const cto = cases[2]!;
    expect(cto.samples[0]?.judge?.criteria).toEqual({ call_to_action: 5, clarity: 4, personalization: 4 });
    expect(cto.grading).toMatchObject({ passed: 2, total: 2 });
    expect(cto.grading?.expectations[0]?.evidence).toContain('invoices that drift from metered usage');
  });

  it('shows flagged grader verdicts, the error and the duplicate for what they are', () => {
    const flagged = iteration(full, 7).cases.find((c) => c.caseId === 'bank-cfo')?.grading?.expectations[0];
    expect(flagged).toMatchObject({ passed: false, flag: expect.stringContaining('not verified') });
    const error = iteration(full, 4);
    expect(error).toMatchObject({ errorKind: 'judge_error', train: null });
    // No evaluation.json of its own: the splits last recorded.
    expect(error.cases.map((c) => c.split)).toEqual(['train', 'holdout', 'train']);
    expect(error.cases.every((c) => c.samples.every((s) => s.judge === null && s.checks.length === 4))).toBe(
      true,
    );
    const duplicate = iteration(full, 6);
    expect(duplicate).toMatchObject({ duplicateOf: 2, cases: [] });
    expect(duplicate.diff?.added).toBeGreaterThan(0);
  });

  it('gathers the grader critique and the checks that never discriminate', () => {
    expect(full.feedback.suggestions).toEqual([
      expect.objectContaining({ assertion: 'Ends with a question', count: 9 }),
    ]);
    expect(full.feedback.overall[0]?.text).toMatch(/easy to meet with generic text/);
    expect(full.flatChecks).toEqual([
      { name: 'greets by name', type: 'icontains', verdict: 'pass', candidates: 10 },
    ]);
  });

  it('builds trends per criterion and per check, and one chart point per iteration', () => {
    expect(full.trends.criteria.map((t) => t.key)).toEqual(['call_to_action', 'clarity', 'personalization']);
    expect(full.trends.criteria[0]?.values).toEqual([2, 2, 2, 2, null, 5, null, 5]);
    const buzz = full.trends.checks.find((t) => t.key === 'no buzzwords');
    expect(buzz?.values).toEqual([0, 0, 0, 0, 0, 1, null, 1]);
    expect(full.chart.points).toHaveLength(full.iterations.length);
    expect(full.chart.points.filter((p) => !p.scored).map((p) => p.iteration)).toEqual([4, 6]);
    expect(full.bestPrompt?.iteration).toBe(5);
    expect(full.bestPrompt?.text).toContain('End with one question');
  });
});

describe('buildReportData on sparse and damaged records', () => {
  it('renders a running run without a judge, with missing iteration files', () => {
    expect(sparse.overview).toMatchObject({
      status: 'crashed',
      simulated: ['generator', 'mutator'],
      final: null,
    });
    expect(sparse.overview.current).toMatchObject({
      iteration: 3,
      phase: 'generating',
      progress: { done: 2, total: 3 },
    });
    expect(sparse.trends.criteria).toEqual([]);
    expect(sparse.feedback).toEqual({ suggestions: [], overall: [] });
    const error = sparse.iterations.find((i) => i.iteration === 2);
    expect(error).toMatchObject({
      status: 'error',
      errorKind: 'provider_error',
      cases: [],
      prompt: null,
      diff: null,
    });
  });

  it('lists unreadable files as problems and still builds', async () => {
    const run = await writeFixtureRun(runsDir, { runId: '20261127-0800-cold-email-bad1' });
    await writeFile(join(run.dir, 'iterations/0005/candidates/1/checks.json'), '{ not json');
    await writeFile(join(run.dir, 'iterations/0001/decision.json'), '{"status": 3}');
    await rm(join(run.dir, 'manifest.json'));
    await rm(join(run.dir, 'best.md'));
    await writeFile(
      join(run.dir, 'events.jsonl'),
      `${run.events.map((e) => JSON.stringify(e)).join('\n')}\n{"broken":\n`,
    );
    const data = buildReportData(await readRunFolder(run.dir), context);
    expect(data.problems).toEqual([
      `events.jsonl line ${run.events.length + 1}: not JSON`,
      `${join(run.dir, 'iterations/0005/candidates/1/checks.json')} is cut short (truncated after 10 characters), so its record cannot be read`,
    ]);
    expect(iteration(data, 5).cases[0]?.samples[0]?.checks).toEqual([]);
    expect(iteration(data, 1).reason).toBeNull();
    expect(data.bestPrompt?.text).toContain('End with one question');
  });

  it('builds from an empty run folder', async () => {
    const dir = join(runsDir, '20261126-0100-empty-aaaa');
    await mkdir(dir);
    const data = buildReportData(await readRunFolder(dir), context);
    expect(data.iterations).toEqual([]);
    expect(data.overview).toMatchObject({ status: 'crashed', experiment: null, best: null });
    expect(data.chart.points).toEqual([]);
    expect(data.bestPrompt).toBeNull();
  });
});

describe('buildReportData on a paired run', () => {
  let paired: ReportData;
  beforeAll(async () => {
    const run = await runPairedScenario();
    paired = buildReportData(await readRunFolder(run.runDir), context);
  });
  afterAll(cleanUpScriptedRuns);

  it("carries each decision's interval into the table and the chart", () => {
    const keep = iteration(paired, 2);
    expect(keep.paired).toMatchObject({
      wins: 3,
      losses: 0,
      ties: 0,
      train: { lo: expect.closeTo(0.139, 3) },
    });
    expect(paired.chart.intervals.map((i) => [i.iteration, i.side])).toEqual([
      [2, 'above'],
      [3, 'across'],
    ]);
    const whisker = paired.chart.intervals[0]!;
    const baseline = paired.chart.points[0]!;
    // Placed from the incumbent it was compared with (the baseline, 0.400): wholly above it.
    expect(whisker.bottom).toBeLessThan(baseline.y);
  });

  it('gives each iteration its per-case churn from decision.json', () => {
    const inconclusive = iteration(paired, 3);
    expect(inconclusive.parent).toBe(2);
    const train = inconclusive.churn?.filter((c) => c.split === 'train') ?? [];
    expect(train.map((c) => [c.caseId, Math.sign(Math.round(c.d * 1000))])).toEqual([
      ['t1', 1],
      ['t2', 0],
      ['t3', -1],
    ]);
    expect(inconclusive.churn?.some((c) => c.split === 'holdout')).toBe(true);
  });

  it('shows a screen-out by its minibatch and counts the calls screening saved', () => {
    const screened = iteration(paired, 1);
    expect(screened).toMatchObject({ status: 'screened_out', paired: null, churn: null, train: null });
    expect(screened.screen).toMatchObject({ passed: false, callsSaved: 2, mean: expect.closeTo(-0.2, 9) });
    expect(screened.proposals[0]?.screen).toMatchObject({ passed: false });
    expect(paired.overview.callsSaved).toBe(2);
    expect(paired.overview.counts).toMatchObject({ keep: 1, inconclusive: 1, screened_out: 1 });
  });

  it('leaves a version-1 run without intervals or churn', () => {
    expect(full.chart.intervals).toEqual([]);
    expect(full.iterations.every((i) => i.paired === null && i.churn === null && i.screen === null)).toBe(
      true,
    );
  });
});

describe('a run started with --from', () => {
  it("carries the manifest's `from` into the overview, without the prompt text", async () => {
    const runsDir = await mkdtemp(join(tmpdir(), 'report-from-'));
    try {
      const run = await writeFixtureRun(runsDir);
      const manifestPath = join(run.dir, 'manifest.json');
      const manifest = JSON.parse(await readFile(manifestPath, 'utf8'));
      const from = {
        runId: '20261128-0915-cold-email-s1p2',
        experiment: 'cold-email',
        take: 'best',
        member: null,
        iteration: 2,
        promptSha256: 'cd'.repeat(32),
        train: 0.5,
        commit: null,
        ref: null,
        text: 'Write.',
      };
      await writeFile(manifestPath, JSON.stringify({ ...manifest, from }));
      const data = buildReportData(await readRunFolder(run.dir), context);
      const { text: _text, ...shown } = from;
      expect(data.overview.from).toEqual(shown);
      expect(full.overview.from).toBeUndefined();
    } finally {
      await rm(runsDir, { recursive: true, force: true });
    }
  });
});
