import { describe, expect, it } from 'vitest';
import { choosePair, locateMember, locatePrompt, parsePromptRef } from '../../../src/report/prompt-refs.js';
import { type RunEvent, stampEvent } from '../../../src/run/events.js';
import { reduceRun } from '../../../src/run/reducer.js';
import { planFixtureRun } from '../../helpers/fixture-run.js';

const state = reduceRun(planFixtureRun().events);

describe('parsePromptRef', () => {
  it('accepts iteration numbers, baseline and best', () => {
    expect(parsePromptRef('7')).toBe(7);
    expect(parsePromptRef(' Best ')).toBe('best');
    expect(parsePromptRef('baseline')).toBe('baseline');
    expect(parsePromptRef('Working')).toBe('working');
    expect(() => parsePromptRef('latest')).toThrow(/does not name a prompt/);
    expect(() => parsePromptRef('-1')).toThrow(expect.objectContaining({ code: 'E_USAGE', exitCode: 2 }));
  });

  it('accepts pool members as p<n>', () => {
    expect(parsePromptRef('p3')).toEqual({ member: 'p3' });
    expect(parsePromptRef(' P12 ')).toEqual({ member: 'p12' });
    expect(() => parsePromptRef('p03')).toThrow(/does not name a prompt/);
  });
});

/** A pareto run's state: p0, p1 and p2 from p0, p3 merging them; p3 the best. */
function poolState() {
  const at = new Date('2026-12-01T21:00:00.000Z');
  const member = (
    id: string,
    iteration: number,
    candidate: number,
    kind: 'seed' | 'mutation' | 'merge',
    parents: string[],
  ) =>
    stampEvent(
      {
        type: 'pool_member',
        member: id,
        iteration,
        candidate,
        kind,
        parents,
        promptSha256: 'a'.repeat(64),
        train: 0.5,
        holdout: null,
        eligible: true,
        cases: { a: 0.5 },
      },
      at,
      5,
    ) as RunEvent;
  const events = [
    ...planFixtureRun().events.slice(0, 1),
    member('p0', 0, 0, 'seed', []),
    member('p1', 1, 0, 'mutation', ['p0']),
    member('p2', 1, 1, 'mutation', ['p0']),
    member('p3', 2, 0, 'merge', ['p1', 'p2']),
  ];
  const state = reduceRun(events);
  if (state.pool) state.pool.best = 'p3';
  return state;
}

describe('pool members', () => {
  const pool = poolState();

  it('locates a member at its own candidate, saying how it was made', () => {
    expect(locatePrompt({ member: 'p2' }, pool)).toMatchObject({
      label: 'p2 (iteration 1, from p0)',
      iteration: 1,
      candidate: 1,
      bestFile: false,
    });
    expect(locatePrompt({ member: 'p3' }, pool).label).toBe('p3 (iteration 2, merge of p1 and p2, the best)');
    expect(locatePrompt({ member: 'p0' }, pool).label).toBe('p0 (iteration 0, the baseline)');
  });

  it('compares one member with its (first) parent; p0 has none', () => {
    expect(choosePair(pool, { member: 'p3' }, undefined)).toEqual([{ member: 'p1' }, { member: 'p3' }]);
    expect(choosePair(pool, { member: 'p2' }, { member: 'p1' })).toEqual([
      { member: 'p2' },
      { member: 'p1' },
    ]);
    expect(() => choosePair(pool, { member: 'p0' }, undefined)).toThrow(/p0 is the baseline/);
  });

  it('refuses an unknown member with the list and the nearest, exit 2', () => {
    expect(() => locateMember(pool, 'p33')).toThrow(
      expect.objectContaining({
        code: 'E_USAGE',
        exitCode: 2,
        message: expect.stringContaining('has no pool member p33'),
        hint: 'did you mean p3? its members are p0, p1, p2, p3',
      }),
    );
    expect(() => locateMember(pool, 'p77')).toThrow(
      expect.objectContaining({ hint: 'its members are p0, p1, p2, p3' }),
    );
  });

  it('says a run without a pool has no members', () => {
    expect(() => locateMember(state, 'p1')).toThrow(
      expect.objectContaining({ code: 'E_USAGE', hint: expect.stringContaining('pareto search only') }),
    );
  });
});

describe('locatePrompt', () => {
  it("finds the baseline, the best (best.md first) and an iteration's decided candidate", () => {
    expect(locatePrompt('baseline', state)).toMatchObject({
      label: 'baseline (iteration 0)',
      iteration: 0,
      candidate: 0,
      bestFile: false,
    });
    expect(locatePrompt('best', state)).toMatchObject({
      label: 'best (iteration 5)',
      iteration: 5,
      candidate: 1,
      bestFile: true,
    });
    expect(locatePrompt(3, state)).toMatchObject({ label: 'iteration 3 (gate_fail)', candidate: 0 });
  });

  it('points a duplicate at the iteration that first tried its prompt', () => {
    expect(locatePrompt(6, state).sameAs).toEqual([{ iteration: 2, candidate: 0 }]);
  });

  it('refuses an iteration the run does not have', () => {
    expect(() => locatePrompt(12, state)).toThrow('the run has no iteration 12');
  });
});

describe('choosePair', () => {
  it('defaults to baseline → best, and compares one iteration with its parent', () => {
    expect(choosePair(state, undefined, undefined)).toEqual(['baseline', 'best']);
    expect(choosePair(state, 7, undefined)).toEqual([5, 7]);
    expect(choosePair(state, 3, undefined)).toEqual([1, 3]);
    expect(choosePair(state, 'best', undefined)).toEqual(['baseline', 'best']);
    expect(choosePair(state, 2, 'best')).toEqual([2, 'best']);
    expect(choosePair(state, 'working', undefined)).toEqual(['best', 'working']);
    expect(choosePair(state, 'baseline', 'working')).toEqual(['baseline', 'working']);
  });

  it('says a baseline has no parent, and an unknown iteration does not exist', () => {
    expect(() => choosePair(state, 0, undefined)).toThrow('iteration 0 is a baseline');
    expect(() => choosePair(state, 40, undefined)).toThrow('the run has no iteration 40');
  });
});
