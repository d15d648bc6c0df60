import { describe, expect, it } from 'vitest';
import { AutoresearchError } from '../../../src/errors.js';
import {
  type BudgetState,
  type CheckBudgetInput,
  checkBudget,
  estimateNextIteration,
  parseBudgetOverride,
} from '../../../src/loop/budget.js';

const state: BudgetState = {
  iterationsDone: 5,
  activeSeconds: 600,
  spentUsd: 1,
  nonImproving: 2,
  consecutiveErrors: 0,
  incumbentTrain: 0.7,
  incumbentEligible: true,
};

interface Overrides extends Partial<Omit<CheckBudgetInput, 'state'>> {
  state?: Partial<BudgetState>;
}

function check(overrides: Overrides = {}) {
  return checkBudget({
    budget: { iterations: 30, hours: 8, usd: 10, patience: 10, target: 0.95, ...overrides.budget },
    state: { ...state, ...overrides.state },
    estimateNextUsd: overrides.estimateNextUsd === undefined ? 0.1 : overrides.estimateNextUsd,
    estimateNextSeconds: overrides.estimateNextSeconds === undefined ? 60 : overrides.estimateNextSeconds,
  });
}

describe('checkBudget', () => {
  it('goes on while every limit is away', () => {
    expect(check()).toEqual({ stop: false });
    expect(checkBudget({ budget: {}, state, estimateNextUsd: null, estimateNextSeconds: null })).toEqual({
      stop: false,
    });
  });

  it('stops on iterations', () => {
    const r = check({ state: { iterationsDone: 30 } });
    expect(r).toMatchObject({ stop: true, reason: 'iterations', message: '30 of 30 iterations done' });
    expect(check({ budget: { iterations: 0 }, state: { iterationsDone: 0 } })).toMatchObject({
      reason: 'iterations',
    });
  });

  it('stops on patience', () => {
    expect(check({ state: { nonImproving: 9 } })).toEqual({ stop: false });
    expect(check({ state: { nonImproving: 10 } })).toMatchObject({ stop: true, reason: 'patience' });
  });

  it('stops on target only for an eligible incumbent', () => {
    expect(check({ state: { incumbentTrain: 0.95 } })).toMatchObject({ stop: true, reason: 'target' });
    expect(check({ state: { incumbentTrain: 0.99, incumbentEligible: false } })).toEqual({ stop: false });
    expect(check({ state: { incumbentTrain: 0.949 } })).toEqual({ stop: false });
  });

  it('stops after 3 error iterations in a row', () => {
    expect(check({ state: { consecutiveErrors: 2 } })).toEqual({ stop: false });
    expect(check({ state: { consecutiveErrors: 3 } })).toMatchObject({ stop: true, reason: 'errors' });
  });

  it('stops on usd when spent, and before an iteration whose estimate would exceed it', () => {
    expect(check({ state: { spentUsd: 10 } })).toMatchObject({ stop: true, reason: 'usd' });
    const ahead = check({ state: { spentUsd: 9.5 }, estimateNextUsd: 0.6 });
    expect(ahead).toMatchObject({ stop: true, reason: 'usd' });
    expect(ahead.stop && ahead.message).toContain('would exceed');
    expect(check({ state: { spentUsd: 9.5 }, estimateNextUsd: 0.5 })).toEqual({ stop: false });
    expect(check({ state: { spentUsd: 9.9 }, estimateNextUsd: null })).toEqual({ stop: false });
  });

  it('stops on hours when used up, and before an iteration whose estimate would exceed them', () => {
    expect(check({ state: { activeSeconds: 8 * 3600 } })).toMatchObject({ stop: true, reason: 'hours' });
    const ahead = check({ state: { activeSeconds: 8 * 3600 - 100 }, estimateNextSeconds: 101 });
    expect(ahead).toMatchObject({ stop: true, reason: 'hours' });
    expect(ahead.stop && ahead.message).toContain('would exceed');
    expect(check({ state: { activeSeconds: 8 * 3600 - 100 }, estimateNextSeconds: 100 })).toEqual({
      stop: false,
    });
  });

  it('reports errors first, then target, iterations, patience, usd, hours', () => {
    const all = {
      iterationsDone: 30,
      activeSeconds: 9 * 3600,
      spentUsd: 11,
      nonImproving: 10,
      consecutiveErrors: 3,
      incumbentTrain: 0.96,
    };
    expect(check({ state: all })).toMatchObject({ reason: 'errors' });
    expect(check({ state: { ...all, consecutiveErrors: 0 } })).toMatchObject({ reason: 'target' });
    expect(check({ state: { ...all, consecutiveErrors: 0, incumbentTrain: 0 } })).toMatchObject({
      reason: 'iterations',
    });
    expect(
      check({ state: { ...all, consecutiveErrors: 0, incumbentTrain: 0, iterationsDone: 0 } }),
    ).toMatchObject({ reason: 'patience' });
    const onlyMoney = { ...all, consecutiveErrors: 0, incumbentTrain: 0, iterationsDone: 0, nonImproving: 0 };
    expect(check({ state: onlyMoney })).toMatchObject({ reason: 'usd' });
    expect(check({ state: { ...onlyMoney, spentUsd: 0 } })).toMatchObject({ reason: 'hours' });
  });
});

describe('estimateNextIteration', () => {
  it('uses the plan before the first iteration', () => {
    expect(estimateNextIteration([], { usd: 0.2, seconds: 30 })).toEqual({ usd: 0.2, seconds: 30 });
  });

  it('uses the mean of past iterations, leaving unpriced ones out of the usd mean', () => {
    const past = [
      { usd: 0.1, seconds: 10 },
      { usd: null, seconds: 20 },
      { usd: 0.3, seconds: 30 },
    ];
    const e = estimateNextIteration(past, { usd: 5, seconds: 500 });
    expect(e.usd).toBeCloseTo(0.2, 10);
    expect(e.seconds).toBe(20);
    expect(estimateNextIteration([{ usd: null, seconds: 4 }], { usd: null, seconds: 1 })).toEqual({
      usd: null,
      seconds: 4,
    });
  });
});

describe('parseBudgetOverride', () => {
  it('N sets a new total, +N extends the current one', () => {
    expect(parseBudgetOverride('20', 30, { name: '--iterations', integer: true })).toBe(20);
    expect(parseBudgetOverride('+10', 30, { name: '--iterations', integer: true })).toBe(40);
    expect(parseBudgetOverride('+1.5', 8)).toBe(9.5);
    expect(parseBudgetOverride(' 2.5 ', 8)).toBe(2.5);
    expect(parseBudgetOverride('.5', undefined)).toBe(0.5);
  });

  it('+N counts from what the run has used when it is known, a total stays a total', () => {
    const options = { name: '--iterations', integer: true, used: 1 };
    expect(parseBudgetOverride('+1', 4, options)).toBe(2);
    expect(parseBudgetOverride('+10', undefined, options)).toBe(11);
    expect(parseBudgetOverride('6', 4, options)).toBe(6);
    expect(parseBudgetOverride('+0.5', 2, { name: '--usd', used: 1.25 })).toBe(1.75);
  });

  it('rejects bad input as a usage error naming the flag', () => {
    for (const bad of ['', '+', 'abc', '-5', '++1', '1e3', '10x', '+-1', '1.']) {
      const attempt = () => parseBudgetOverride(bad, 10, { name: '--usd' });
      expect(attempt).toThrow(AutoresearchError);
      expect(attempt).toThrow(/--usd/);
    }
    const error = thrown(() => parseBudgetOverride('x', 10, { name: '--usd' }));
    expect(error).toBeInstanceOf(AutoresearchError);
    expect((error as AutoresearchError).exitCode).toBe(2);
    expect((error as AutoresearchError).hint).toContain('+N');
  });

  it('rejects fractions for whole-number budgets and +N without a current limit', () => {
    expect(() => parseBudgetOverride('2.5', 30, { name: '--patience', integer: true })).toThrow(
      /whole number/,
    );
    expect(() => parseBudgetOverride('+5', undefined, { name: '--usd' })).toThrow(/no current limit/);
  });
});

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}
