import { describe, expect, it } from 'vitest';
import { createRunRecorder } from '../../../src/loop/run-recorder.js';
import { thresholdsCrossed, watchSpendAlerts } from '../../../src/loop/spend-alerts.js';
import { type CallRecord, createCostLedger } from '../../../src/providers/ledger.js';
import { readJournal } from '../../../src/run/journal.js';
import { JournalBuilder } from '../../fixtures/runs/journal-builder.js';
import { useTempDir } from '../../helpers/temp-dir.js';

const tmp = useTempDir('spend-alerts-');
const now = () => new Date('2026-12-01T22:00:00.000Z');

const call = (costUsd: number): CallRecord => ({
  role: 'generator',
  provider: 'anthropic',
  model: 'claude-sonnet-4-5',
  ok: true,
  inputTokens: 10,
  outputTokens: 10,
  costUsd,
  cached: false,
  attempts: 1,
  latencyMs: 1,
  simulated: false,
});

async function alertsIn(runDir: string) {
  const { events } = await readJournal(runDir);
  return events.filter((e) => e.type === 'spend_alert');
}

describe('thresholdsCrossed', () => {
  it('gives each threshold reached and not yet alerted, lowest first', () => {
    expect(thresholdsCrossed(0.49, 1, [])).toEqual([]);
    expect(thresholdsCrossed(0.5, 1, [])).toEqual([0.5]);
    expect(thresholdsCrossed(0.9, 1, [])).toEqual([0.5, 0.8]);
    expect(thresholdsCrossed(0.9, 1, [0.5])).toEqual([0.8]);
  });
});

describe('watchSpendAlerts', () => {
  it('journals 50% and 80% of budget.usd once each, at the call that crosses them', async () => {
    const runDir = tmp();
    const recorder = createRunRecorder(runDir, [], now);
    await recorder.emit({
      type: 'run_started',
      runId: 'r',
      kind: 'run',
      experiment: 'e',
      configDigest: 'a'.repeat(64),
      overrides: {},
      git: null,
      simulated: [],
    });
    await recorder.emit({ type: 'iteration_started', iteration: 2, mode: 'focused' });
    const ledger = createCostLedger();
    const stop = watchSpendAlerts(ledger, recorder, 2);
    for (const usd of [0.6, 0.3]) ledger.record(call(usd));
    await recorder.emit();
    expect(await alertsIn(runDir)).toEqual([]);
    ledger.record(call(0.15)); // $1.05 of $2: past 50%
    ledger.record(call(0.1));
    ledger.record(call(0.4)); // $1.55: not yet 80%
    ledger.record(call(0.1)); // $1.65: past 80%
    ledger.record(call(0.5));
    stop();
    ledger.record(call(5));
    await recorder.emit();
    const alerts = await alertsIn(runDir);
    expect(alerts.map((a) => [a.threshold, a.spentUsd, a.budgetUsd, a.iteration])).toEqual([
      [0.5, expect.closeTo(1.05, 10), 2, 2],
      [0.8, expect.closeTo(1.65, 10), 2, 2],
    ]);
    expect(recorder.state().spendAlerts).toHaveLength(2);
  });

  it('counts what earlier sessions spent and never alerts a threshold the journal already holds', async () => {
    const runDir = tmp();
    const earlier = new JournalBuilder()
      .start()
      .push({ type: 'spend', role: 'generator', usd: 6, calls: 10, iteration: 0 })
      .push({ type: 'spend_alert', threshold: 0.5, spentUsd: 5.2, budgetUsd: 10, iteration: 0 })
      .stop('interrupted')
      .resume().events;
    const recorder = createRunRecorder(runDir, earlier, now);
    const ledger = createCostLedger();
    const stop = watchSpendAlerts(ledger, recorder, 10);
    ledger.record(call(1.9));
    await recorder.emit();
    expect(await alertsIn(runDir)).toEqual([]);
    ledger.record(call(0.2)); // 6 + 2.1 = 8.1 of 10
    stop();
    await recorder.emit();
    const alerts = await alertsIn(runDir);
    expect(alerts.map((a) => [a.threshold, a.spentUsd])).toEqual([[0.8, expect.closeTo(8.1, 10)]]);
  });

  it('watches nothing without budget.usd', async () => {
    const runDir = tmp();
    const recorder = createRunRecorder(runDir, [], now);
    const ledger = createCostLedger();
    watchSpendAlerts(ledger, recorder, undefined)();
    ledger.record(call(100));
    await recorder.emit();
    expect(recorder.state().spendAlerts).toEqual([]);
  });
});
