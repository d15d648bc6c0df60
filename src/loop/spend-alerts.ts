/**
 * Spend alerts (docs/design/cost-engine.md): the moment a run's spend crosses 50% and then 80% of
 * `budget.usd`, one `spend_alert` is journaled (the terminal, `watch` and `show` read it from
 * there). The spend is watched call by call on the pool's ledger, so an alert lands when the money
 * is spent rather than when the iteration ends; what earlier sessions of the run spent comes from
 * the journal, and a threshold the journal already alerted is never alerted again, so a
 * resumed run keeps "once per threshold per run".
 */
import type { CostLedger } from '../providers/ledger.js';
import type { RunRecorder } from './run-recorder.js';

export const SPEND_ALERT_THRESHOLDS = [0.5, 0.8] as const;

/** The thresholds `spentUsd` has reached that are not in `alerted`, lowest first. */
export function thresholdsCrossed(spentUsd: number, budgetUsd: number, alerted: readonly number[]): number[] {
  return SPEND_ALERT_THRESHOLDS.filter((t) => !alerted.includes(t) && spentUsd >= t * budgetUsd);
}

/**
 * Watches the ledger for the rest of this session; returns the function that stops watching.
 * No budget.usd: nothing to watch.
 */
export function watchSpendAlerts(
  ledger: CostLedger,
  recorder: RunRecorder,
  budgetUsd: number | undefined,
): () => void {
  if (budgetUsd === undefined) return () => undefined;
  const start = recorder.state();
  // This session's calls are all on this ledger; what came before is in the journal.
  const before = start.spend.usd - ledger.snapshot().total.usd;
  const alerted = start.spendAlerts.map((a) => a.threshold);
  const check = (sessionUsd: number) => {
    const spentUsd = before + sessionUsd;
    for (const threshold of thresholdsCrossed(spentUsd, budgetUsd, alerted)) {
      alerted.push(threshold);
      const iteration = recorder.state().open?.iteration;
      // Appends are serialised by the recorder: the alert lands in order with the rest.
      void recorder
        .emit({
          type: 'spend_alert',
          threshold,
          spentUsd,
          budgetUsd,
          ...(iteration === undefined ? {} : { iteration }),
        })
        .catch(() => undefined);
    }
  };
  check(ledger.snapshot().total.usd);
  return ledger.onCall((_call, snapshot) => check(snapshot.total.usd));
}
