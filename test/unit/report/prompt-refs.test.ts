import { describe, expect, it } from 'vitest';
import { choosePair, locatePrompt, parsePromptRef } from '../../../src/report/prompt-refs.js';
import { reduceRun } from '../../../src/run/reducer.js';
import { planFixtureRun } from '../../helpers/fixture-run.js';

const state = reduceRun(planFixtureRun().events);

describe('parsePromptRef', () => {
  it('accepts iteration numbers, baseline and best', () => {
    expect(parsePromptRef('7')).toBe(7);
    expect(parsePromptRef(' Best ')).toBe('best');
    expect(parsePromptRef('baseline')).toBe('baseline');
    expect(() => parsePromptRef('latest')).toThrow(/does not name a prompt/);
    expect(() => parsePromptRef('-1')).toThrow(expect.objectContaining({ code: 'E_USAGE', exitCode: 2 }));
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
  });

  it('says a baseline has no parent, and an unknown iteration does not exist', () => {
    expect(() => choosePair(state, 0, undefined)).toThrow('iteration 0 is a baseline');
    expect(() => choosePair(state, 40, undefined)).toThrow('the run has no iteration 40');
  });
});
