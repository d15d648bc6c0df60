import { describe, expect, it } from 'vitest';
import { reduceRun } from '../../../src/run/reducer.js';
import { describeSpendAlert, ledgerLines } from '../../../src/ui/format-ledger.js';
import { formatRunSummary } from '../../../src/ui/progress-line.js';
import { JournalBuilder } from '../../fixtures/runs/journal-builder.js';

const journal = new JournalBuilder()
  .start()
  .push({
    type: 'spend',
    role: 'generator',
    usd: 0.0123,
    calls: 24,
    batchCalls: 8,
    cachedCalls: 4,
    inputTokens: 52_000,
    cacheWriteTokens: 3_000,
    cacheReadTokens: 40_000,
    outputTokens: 9_000,
    iteration: 0,
  })
  .push({
    type: 'spend',
    role: 'mutator',
    usd: 0.02,
    calls: 1,
    inputTokens: 1_500,
    outputTokens: 400,
    iteration: 1,
  })
  .push({ type: 'spend_alert', threshold: 0.5, spentUsd: 0.5123, budgetUsd: 1, iteration: 3 });

describe('the ledger per role as text', () => {
  it('gives each role that made calls its calls, tokens by kind and USD', () => {
    expect(ledgerLines(reduceRun(journal.events).spend.byRole)).toEqual([
      'generator  24 calls (8 batch, 4 cached, 12 interactive); in 52,000 (cache write 3,000, cache read 40,000), out 9,000; $0.0123',
      'mutator    1 call; in 1,500, out 400; $0.0200',
    ]);
  });

  it('says a spend alert with its threshold, the money and where', () => {
    expect(describeSpendAlert({ threshold: 0.8, spentUsd: 8.04, budgetUsd: 10, iteration: 7 })).toBe(
      'spend alert: 80% of budget.usd reached ($8.04 of $10.00) at iteration 7',
    );
    expect(describeSpendAlert({ threshold: 0.5, spentUsd: 5, budgetUsd: 10 })).toBe(
      'spend alert: 50% of budget.usd reached ($5.00 of $10.00)',
    );
  });

  it('closes a run with the ledger under its cost', () => {
    const state = reduceRun(journal.events);
    const plain = { green: String, red: String, yellow: String, cyan: String, dim: String, bold: String };
    const text = formatRunSummary(
      {
        runId: 'r',
        final: null,
        during: { baseline: { train: 0.5, holdout: null }, best: { train: 0.6, holdout: null } },
        counts: {},
        callsSaved: 0,
        totalCostUsd: state.spend.usd,
        ledger: ledgerLines(state.spend.byRole),
        stop: { reason: 'iterations', message: 'done' },
        branch: null,
        reportPath: 'report.html',
        simulated: false,
      },
      plain,
    );
    expect(text.split('\n').slice(4, 7)).toEqual([
      '  cost                  $0.032',
      '  ledger                generator  24 calls (8 batch, 4 cached, 12 interactive); in 52,000 (cache write 3,000, cache read 40,000), out 9,000; $0.0123',
      '                        mutator    1 call; in 1,500, out 400; $0.0200',
    ]);
  });
});

describe('spend alerts in watch', () => {
  const plain = {
    ...Object.fromEntries(['green', 'red', 'yellow', 'cyan', 'dim', 'bold'].map((k) => [k, String])),
  };
  it('prints an alert as it is journaled and keeps the latest in the frame', async () => {
    const { describeEvents, renderWatchFrame } = await import('../../../src/ui/watch-view.js');
    const state = reduceRun(journal.events);
    const alert = journal.events.at(-1);
    if (alert === undefined) throw new Error('no event');
    const options = { width: 120, colors: plain as never, history: false, lastPhase: new Map() };
    expect(describeEvents([alert], state, options)).toEqual([
      'spend alert: 50% of budget.usd reached ($0.51 of $1.00) at iteration 3',
    ]);
    const frame = renderWatchFrame('r', state, new Date('2026-11-29T23:00:00.000Z'), {
      width: 120,
      colors: plain as never,
    });
    expect(frame).toContain('spend alert: 50% of budget.usd reached ($0.51 of $1.00) at iteration 3');
  });
});
