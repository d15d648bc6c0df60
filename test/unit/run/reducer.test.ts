import { describe, expect, it } from 'vitest';
import { parseJournal } from '../../../src/run/journal.js';
import { activeSecondsAt, reduceRun } from '../../../src/run/reducer.js';
import { JournalBuilder, promptSha } from '../../fixtures/runs/journal-builder.js';

const SHA1 = '1111111111111111111111111111111111111111';
const SHA2 = '2222222222222222222222222222222222222222';

function typicalRun(): JournalBuilder {
  return new JournalBuilder()
    .start()
    .baseline([0.6, 0.62, 0.64])
    .iteration(1, { status: 'keep', train: 0.7, commit: SHA1, hypothesis: 'shorter subject lines' })
    .iteration(2, { status: 'discard', train: 0.69 })
    .iteration(3, { status: 'gate_fail', train: 0.8, gateFailure: 'starts-with failed on case a' })
    .iteration(4, { status: 'keep', train: 0.75, commit: SHA2 })
    .stop('iterations');
}

describe('reduceRun', () => {
  it('gives the same state for the same journal, every time and after a JSON round trip', () => {
    const events = typicalRun().events;
    const first = reduceRun(events);
    expect(reduceRun(events)).toEqual(first);
    expect(reduceRun(JSON.parse(JSON.stringify(events)))).toEqual(first);
    expect(reduceRun(parseJournal(typicalRun().jsonl()).events)).toEqual(first);
  });

  it('folds iterations, the incumbent, the baseline and commits', () => {
    const state = reduceRun(typicalRun().events);
    expect(state.start?.runId).toBe('20261129-2230-cold-email-k3f9');
    expect(state.iterations.map((r) => [r.iteration, r.status])).toEqual([
      [0, 'baseline'],
      [1, 'keep'],
      [2, 'discard'],
      [3, 'gate_fail'],
      [4, 'keep'],
    ]);
    expect(state.baseline?.train).toBeCloseTo(0.62, 10);
    expect(state.iterations[0]?.signals.checks).toBeCloseTo(0.62, 10);
    expect(state.incumbent).toMatchObject({ iteration: 4, train: 0.75, commit: SHA2, eligible: true });
    expect(state.incumbent?.promptSha256).toBe(promptSha('prompt 4'));
    expect(state.iterations.map((r) => r.best)).toEqual([expect.closeTo(0.62, 10), 0.7, 0.7, 0.7, 0.75]);
    expect(state.iterations[1]).toMatchObject({ commit: SHA1, hypothesis: 'shorter subject lines' });
    expect(state.iterations[2]?.commit).toBeNull();
    expect(state.iterations[3]?.gateFailure).toBe('starts-with failed on case a');
    expect(state.commits).toEqual([
      { iteration: 1, sha: SHA1 },
      { iteration: 4, sha: SHA2 },
    ]);
    expect(state.expectedHead).toBe(SHA2);
    expect(state.noise).toMatchObject({ iteration: 0, train: 0.02, holdout: 0.03 });
    expect(state.completedIterations).toBe(4);
    expect(state.nextIteration).toBe(5);
    expect(state.open).toBeNull();
    expect(state.journalStatus).toBe('finished');
    expect(state.stop?.reason).toBe('iterations');
  });

  it('totals spend per role', () => {
    const state = reduceRun(typicalRun().events);
    // A journal written before the ledger's token counts (docs/design/cost-engine.md) reads them as
    // 0.
    const none = {
      batchCalls: 0,
      cachedCalls: 0,
      inputTokens: 0,
      cacheWriteTokens: 0,
      cacheReadTokens: 0,
      outputTokens: 0,
    };
    expect(state.spend.byRole.generator).toEqual({ usd: 0.03, calls: 9, ...none });
    expect(state.spend.byRole.mutator.calls).toBe(4);
    expect(state.spend.byRole.mutator.usd).toBeCloseTo(0.08, 10);
    expect(state.spend.byRole.judge).toEqual({ usd: 0, calls: 0, ...none });
    expect(state.spend.usd).toBeCloseTo(0.11, 10);
  });

  it('folds the ledger per role: tokens by kind, batch calls and response-cache hits, per role and in total', () => {
    const ledger = (role: 'generator' | 'judge', n: number) =>
      ({
        type: 'spend',
        role,
        usd: 0.01 * n,
        calls: 2 * n,
        inputTokens: 1000 * n,
        cacheWriteTokens: 100 * n,
        cacheReadTokens: 600 * n,
        outputTokens: 50 * n,
        batchCalls: n,
        cachedCalls: n - 1,
        iteration: 0,
      }) as const;
    const state = reduceRun(
      new JournalBuilder()
        .start()
        .push(ledger('generator', 1))
        .push(ledger('generator', 2))
        .push(ledger('judge', 1)).events,
    );
    expect(state.spend.byRole.generator).toEqual({
      usd: expect.closeTo(0.03, 10),
      calls: 6,
      batchCalls: 3,
      cachedCalls: 1,
      inputTokens: 3000,
      cacheWriteTokens: 300,
      cacheReadTokens: 1800,
      outputTokens: 150,
    });
    expect(state.spend.calls).toBe(8);
    expect(state.spend.batchCalls).toBe(4);
    expect(state.spend.cachedCalls).toBe(1);
    expect(state.spend.cacheReadTokens).toBe(2400);
    expect(state.spend.outputTokens).toBe(200);
  });

  it('keeps every spend alert the journal holds, across a resume', () => {
    const state = reduceRun(
      new JournalBuilder()
        .start()
        .push({ type: 'spend_alert', threshold: 0.5, spentUsd: 0.6, budgetUsd: 1, iteration: 2 })
        .stop('interrupted')
        .resume()
        .push({ type: 'spend_alert', threshold: 0.8, spentUsd: 0.85, budgetUsd: 1 }).events,
    );
    expect(state.spendAlerts).toEqual([
      { threshold: 0.5, spentUsd: 0.6, budgetUsd: 1, iteration: 2 },
      { threshold: 0.8, spentUsd: 0.85, budgetUsd: 1, iteration: null },
    ]);
  });

  it('counts patience over discard, gate_fail and holdout_fail only', () => {
    const b = new JournalBuilder()
      .start()
      .baseline([0.5])
      .iteration(1, { status: 'discard' })
      .iteration(2, { status: 'gate_fail' })
      .iteration(3, { status: 'error', errorKind: 'provider_error' })
      .iteration(4, { status: 'duplicate' })
      .iteration(5, { status: 'holdout_fail' });
    expect(reduceRun(b.events).counters).toEqual({
      nonImproving: 3,
      consecutiveErrors: 0,
      discardsInARow: 4,
    });
    b.iteration(6, { status: 'keep', train: 0.9 });
    expect(reduceRun(b.events).counters).toEqual({
      nonImproving: 0,
      consecutiveErrors: 0,
      discardsInARow: 0,
    });
  });

  it('counts errors in a row; anything but an error or an interruption breaks the row', () => {
    const b = new JournalBuilder()
      .start()
      .baseline([0.5])
      .iteration(1, { status: 'error', errorKind: 'provider_error' })
      .iteration(2, { status: 'error', errorKind: 'judge_error' });
    expect(reduceRun(b.events).counters.consecutiveErrors).toBe(2);
    expect(reduceRun(b.events).iterations[2]?.errorKind).toBe('judge_error');
    b.iteration(3, { status: 'duplicate' }).iteration(4, { status: 'error', errorKind: 'provider_error' });
    expect(reduceRun(b.events).counters.consecutiveErrors).toBe(1);
    b.iteration(5, { status: 'interrupted', train: null });
    expect(reduceRun(b.events).counters.consecutiveErrors).toBe(1);
  });

  it('reports a started but unfinished iteration as open, to be redone under its number', () => {
    const b = new JournalBuilder()
      .start()
      .baseline([0.5])
      .iteration(1, { status: 'discard' })
      .begin(2, 'judging');
    const state = reduceRun(b.events);
    expect(state.open).toMatchObject({
      iteration: 2,
      phase: 'judging',
      candidate: 0,
      progress: { done: 3, total: 8 },
      attempts: 1,
    });
    expect(state.open?.proposals).toHaveLength(1);
    expect(state.nextIteration).toBe(2);
    expect(state.journalStatus).toBe('open');
    expect(state.completedIterations).toBe(1);
  });

  it('keeps a commit journaled before the iteration finished, so resume completes the keep', () => {
    const b = new JournalBuilder().start().baseline([0.5]).begin(1, 'committing');
    b.push({ type: 'commit', iteration: 1, sha: SHA1 });
    const crashed = reduceRun(b.events);
    expect(crashed.open?.commit).toBe(SHA1);
    expect(crashed.expectedHead).toBe(SHA1);
    b.resume().iteration(1, { status: 'keep', train: 0.7 });
    const resumed = reduceRun(b.events);
    expect(resumed.iterations[1]).toMatchObject({ status: 'keep', commit: SHA1, attempts: 2 });
    expect(resumed.commits).toHaveLength(1);
  });

  it('replaces an interrupted iteration by its redo and counts the attempts', () => {
    const b = new JournalBuilder()
      .start()
      .baseline([0.5])
      .begin(1, 'mutating')
      .push({
        type: 'iteration_finished',
        iteration: 1,
        status: 'interrupted',
        candidate: null,
        train: null,
        holdout: null,
        incumbentBefore: 0.5,
        delta: null,
        hypothesis: null,
        promptSha256: null,
        costUsd: 0,
        seconds: 3,
      })
      .stop('interrupted');
    const stopped = reduceRun(b.events);
    expect(stopped.journalStatus).toBe('stopped');
    expect(stopped.iterations.at(-1)?.status).toBe('interrupted');
    expect(stopped.nextIteration).toBe(1);
    expect(stopped.completedIterations).toBe(0);
    b.resume().iteration(1, { status: 'keep', train: 0.6 });
    const resumed = reduceRun(b.events);
    expect(resumed.journalStatus).toBe('open');
    expect(resumed.iterations.map((r) => [r.iteration, r.status, r.attempts])).toEqual([
      [0, 'baseline', 1],
      [1, 'keep', 2],
    ]);
    expect(resumed.nextIteration).toBe(2);
  });

  it('treats an iteration abandoned for another as interrupted', () => {
    const b = new JournalBuilder().start().baseline([0.5]).begin(1).iteration(2, { status: 'discard' });
    const state = reduceRun(b.events);
    expect(state.iterations.map((r) => [r.iteration, r.status])).toEqual([
      [0, 'baseline'],
      [1, 'interrupted'],
      [2, 'discard'],
    ]);
    expect(state.open).toBeNull();
  });

  it('sums active time over active periods, leaving out the time crashed', () => {
    const b = new JournalBuilder('2026-11-29T22:00:00.000Z').start();
    b.push({ type: 'warning', message: 'first period' }, 100);
    b.wait(5000).resume();
    b.push({ type: 'warning', message: 'second period' }, 50).stop('stop_requested', 'asked to stop');
    const state = reduceRun(b.events);
    expect(state.active.seconds).toBe(151);
    expect(state.active.openSince).toBeNull();
    expect(activeSecondsAt(state, new Date('2030-01-01T00:00:00Z'))).toBe(151);

    b.wait(600).resume();
    const reopened = reduceRun(b.events);
    const since = Date.parse(reopened.active.openSince ?? '');
    expect(reopened.active.seconds).toBe(151);
    expect(activeSecondsAt(reopened, new Date(since + 30_000))).toBe(181);
    expect(reopened.resumes).toBe(2);
    expect(reopened.warnings.map((w) => w.message)).toEqual(['first period', 'second period']);
  });

  it('tolerates a torn last line: the state is that of the complete lines', () => {
    const complete = typicalRun().jsonl();
    const torn = `${complete}{"v":1,"at":"2026-11-29T23:00:00.000Z","type":"war`;
    const read = parseJournal(torn);
    expect(read.tornTail).toBe(true);
    expect(read.invalidLines).toEqual([]);
    expect(reduceRun(read.events)).toEqual(reduceRun(parseJournal(complete).events));
  });

  it('starts a new baseline on a rebaseline resume and resets the counters', () => {
    const b = new JournalBuilder()
      .start()
      .baseline([0.5])
      .iteration(1, { status: 'discard' })
      .iteration(2, { status: 'discard' })
      .stop('errors')
      .resume({ rebaseline: true });
    expect(reduceRun(b.events).pendingRebaseline).toBe(true);
    b.baseline([0.4, 0.42], { iteration: 3 });
    const state = reduceRun(b.events);
    expect(state.pendingRebaseline).toBe(false);
    expect(state.baseline).toMatchObject({ iteration: 3 });
    expect(state.incumbent?.train).toBeCloseTo(0.41, 10);
    expect(state.counters.nonImproving).toBe(0);
    expect(state.iterations.map((r) => r.iteration)).toEqual([0, 1, 2, 3]);
  });

  it('marks an incumbent that failed a gate as ineligible', () => {
    const state = reduceRun(
      new JournalBuilder().start().baseline([0.3], { gateFailure: 'no subject' }).events,
    );
    expect(state.incumbent?.eligible).toBe(false);
  });

  it('says what the journal says about the end of the run', () => {
    expect(reduceRun([]).journalStatus).toBe('empty');
    expect(reduceRun(new JournalBuilder().start().events).journalStatus).toBe('open');
    expect(reduceRun(new JournalBuilder().start().stop('patience').events).journalStatus).toBe('finished');
    expect(reduceRun(new JournalBuilder().start().stop('credit').events).journalStatus).toBe('stopped');
    expect(reduceRun(new JournalBuilder().start().stop('credit').resume().events).journalStatus).toBe('open');
  });

  it('records the final evaluation', () => {
    const b = typicalRun();
    b.push({
      type: 'final_evaluation',
      baseline: { train: 0.6, holdout: 0.55 },
      best: { iteration: 4, train: 0.74, holdout: 0.7 },
    });
    expect(reduceRun(b.events).finalEvaluation).toEqual({
      baseline: { train: 0.6, holdout: 0.55 },
      best: { iteration: 4, train: 0.74, holdout: 0.7 },
    });
  });
});
