/**
 * Why a run stopped before a call (spend-reservations.ts): its worst case would have taken the
 * spend past `budget.usd`. The session aborts the run with it as the reason, so the iteration's
 * other calls stop as on Ctrl-C and the loop ends with reason `usd`, resumable with more budget.
 */
import type { Refusal } from './spend-reservations.js';

export class BudgetReached extends Error {
  readonly refusal: Refusal;

  constructor(refusal: Refusal) {
    const money = (usd: number) => `$${usd.toFixed(usd < 1 ? 3 : 2)}`;
    super(
      `spent ${money(refusal.spentUsd)} of the ${money(refusal.limitUsd)} budget; the next call could cost up to ${money(refusal.worstUsd)} and was not started`,
    );
    this.name = 'BudgetReached';
    this.refusal = refusal;
  }
}
