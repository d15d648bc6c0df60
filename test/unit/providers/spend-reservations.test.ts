import { describe, expect, it } from 'vitest';
import {
  createSpendReservations,
  type Hold,
  isRefusal,
  judgeReservation,
  type Refusal,
} from '../../../src/providers/spend-reservations.js';

const held = (outcome: Hold | Refusal): Hold => {
  if (isRefusal(outcome)) throw new Error('refused');
  return outcome;
};

describe('judgeReservation', () => {
  it('grants what fits beside the spend and the holds, waits for what fits beside the spend alone, refuses the rest', () => {
    const totals = { limitUsd: 1, spentUsd: 0.2, heldUsd: 0.5 };
    expect(judgeReservation(totals, 0.3)).toBe('grant');
    expect(judgeReservation(totals, 0.5)).toBe('wait');
    expect(judgeReservation(totals, 0.8)).toBe('wait');
    expect(judgeReservation(totals, 0.81)).toBe('refuse');
  });
});

describe('createSpendReservations', () => {
  it('never lets the calls in flight together reserve more than the budget', async () => {
    const reservations = createSpendReservations(1);
    // Twelve concurrent calls of $0.3 worst case: three start, the others wait.
    const outcomes = Array.from({ length: 12 }, () => reservations.reserve(0.3));
    const started: Hold[] = [];
    const answered = new Set<number>();
    for (const [i, p] of outcomes.entries()) {
      p.then((o) => {
        if (!isRefusal(o)) started.push(o);
        answered.add(i);
      });
    }
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toHaveLength(3);
    expect(reservations.totals().heldUsd).toBeCloseTo(0.9, 9);

    // Each pays $0.1 of its $0.3: the room a settled hold frees lets the next waiter in.
    for (let round = 0; answered.size < 12 && round < 20; round += 1) {
      for (const hold of started) hold.settle(0.1);
      await new Promise((resolve) => setImmediate(resolve));
      const { spentUsd, heldUsd } = reservations.totals();
      expect(spentUsd + heldUsd).toBeLessThanOrEqual(1 + 1e-9);
    }
    for (const hold of started) hold.settle(0.1);
    const all = await Promise.all(outcomes);
    const refusals = all.filter(isRefusal);
    // Once $0.8 is spent a $0.3 worst case can never fit: the calls still waiting are refused.
    expect(started).toHaveLength(8);
    expect(refusals).toHaveLength(4);
    for (const refusal of refusals) expect(refusal.spentUsd + refusal.worstUsd).toBeGreaterThan(1);
    expect(reservations.totals()).toEqual({ limitUsd: 1, spentUsd: expect.closeTo(0.8, 9), heldUsd: 0 });
  });

  it('refuses a call that cannot fit even when nothing else is in flight, and counts earlier spend', async () => {
    const reservations = createSpendReservations(0.5, 0.3);
    const outcome = await reservations.reserve(0.9);
    expect(outcome).toEqual({ limitUsd: 0.5, spentUsd: 0.3, worstUsd: 0.9 });
    expect(reservations.totals().heldUsd).toBe(0);
    expect(isRefusal(await reservations.reserve(0.2))).toBe(false);
  });

  it('refuses waiters once what the calls ahead of them spent leaves no room', async () => {
    const reservations = createSpendReservations(1);
    const first = held(await reservations.reserve(0.6));
    const second = reservations.reserve(0.6);
    const third = reservations.reserve(0.1);
    first.settle(0.5);
    expect(await second).toEqual({ limitUsd: 1, spentUsd: 0.5, worstUsd: 0.6 });
    // The small call behind it did not overtake it, and fits now.
    expect(isRefusal(await third)).toBe(false);
  });

  it('settles a hold once only', async () => {
    const reservations = createSpendReservations(1);
    const hold = held(await reservations.reserve(0.4));
    hold.settle(0.2);
    hold.settle(0.2);
    expect(reservations.totals()).toEqual({ limitUsd: 1, spentUsd: 0.2, heldUsd: 0 });
  });
});
