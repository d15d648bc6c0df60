/**
 * The reservation ledger behind `budget.usd` (docs/design/cost-engine.md): before a priced call
 * starts it holds the call's worst case, and the hold is settled to what the call was billed once
 * it ends. A call starts only when what is spent, plus every hold in flight, plus its own worst
 * case stays within the limit, so concurrent calls can never cross the budget together. A call
 * that would fit once the holds in flight settle waits for them (they usually cost less than
 * their worst case); one that cannot fit even then is refused, and the run stops there.
 *
 * No IO: the arithmetic is `judgeReservation`, the queue around it is plain state.
 */

export interface ReservationTotals {
  limitUsd: number;
  /** Settled: what the calls that ended were billed (earlier sessions of the run included). */
  spentUsd: number;
  /** The worst cases of the calls in flight. */
  heldUsd: number;
}

export type ReservationVerdict = 'grant' | 'wait' | 'refuse';

/**
 * Whether a call of this worst case may start now, after the holds in flight settle, or never:
 * settling only adds to what is spent, so a call that does not fit beside the spend alone never will.
 */
export function judgeReservation(totals: ReservationTotals, worstUsd: number): ReservationVerdict {
  if (totals.spentUsd + worstUsd > totals.limitUsd) return 'refuse';
  if (totals.spentUsd + totals.heldUsd + worstUsd > totals.limitUsd) return 'wait';
  return 'grant';
}

export interface Hold {
  readonly worstUsd: number;
  /** What the call was billed (0 when nothing, e.g. a refused or unpriced call); once only. */
  settle(spentUsd: number): void;
}

/** Why a call was not started: the budget it would cross, for the run's stop message. */
export interface Refusal {
  limitUsd: number;
  spentUsd: number;
  worstUsd: number;
}

export interface SpendReservations {
  /** A hold once the call fits; a Refusal when it never will. Waiters are served first come, first served. */
  reserve(worstUsd: number): Promise<Hold | Refusal>;
  totals(): ReservationTotals;
}

interface Waiter {
  worstUsd: number;
  resolve(outcome: Hold | Refusal): void;
}

export function isRefusal(outcome: Hold | Refusal): outcome is Refusal {
  return !('settle' in outcome);
}

export function createSpendReservations(limitUsd: number, spentUsd = 0): SpendReservations {
  const totals: ReservationTotals = { limitUsd, spentUsd, heldUsd: 0 };
  const queue: Waiter[] = [];

  const hold = (worstUsd: number): Hold => {
    totals.heldUsd += worstUsd;
    let settled = false;
    return {
      worstUsd,
      settle(spent) {
        if (settled) return;
        settled = true;
        totals.heldUsd = Math.max(0, totals.heldUsd - worstUsd);
        totals.spentUsd += Math.max(0, spent);
        serve();
      },
    };
  };
  const refusal = (worstUsd: number): Refusal => ({ limitUsd, spentUsd: totals.spentUsd, worstUsd });

  // The queue's head decides: a later, smaller call does not overtake a waiting one.
  const serve = () => {
    for (;;) {
      const head = queue[0];
      if (head === undefined) return;
      const verdict = judgeReservation(totals, head.worstUsd);
      if (verdict === 'wait') return;
      queue.shift();
      head.resolve(verdict === 'grant' ? hold(head.worstUsd) : refusal(head.worstUsd));
    }
  };

  return {
    reserve(worstUsd) {
      const worst = Math.max(0, worstUsd);
      if (queue.length === 0) {
        const verdict = judgeReservation(totals, worst);
        if (verdict === 'grant') return Promise.resolve(hold(worst));
        if (verdict === 'refuse') return Promise.resolve(refusal(worst));
      }
      return new Promise((resolve) => {
        queue.push({ worstUsd: worst, resolve });
        serve();
      });
    },
    totals: () => ({ ...totals }),
  };
}
