import { describe, expect, it } from 'vitest';
import type { CandidateScores } from '../../../src/evaluate/candidate-result.js';
import { compareRuns, type RunSide } from '../../../src/report/compare-runs.js';
import { buildOverview } from '../../../src/report/overview.js';
import { reduceRun } from '../../../src/run/reducer.js';
import type { SplitScore } from '../../../src/scoring/index.js';

function split(name: 'train' | 'holdout' | 'test', totals: Record<string, number | null>): SplitScore {
  const cases = Object.entries(totals).map(([caseId, total]) => ({ caseId, split: name, total }));
  const scored = cases.filter((c) => c.total !== null).map((c) => c.total as number);
  return {
    split: name,
    total: scored.length === 0 ? null : scored.reduce((a, b) => a + b, 0) / scored.length,
    gateFailed: false,
    gateFailures: [],
    criteria: {},
    cases,
  } as SplitScore;
}

function side(
  id: string,
  train: Record<string, number | null>,
  holdout: Record<string, number | null> = {},
  options: {
    experiment?: string;
    source?: 'final' | 'decided';
    prompt?: string;
    judges?: string[];
    test?: Record<string, number>;
  } = {},
): RunSide {
  const overview = {
    ...buildOverview(reduceRun([]), { id, liveLock: false }),
    experiment: options.experiment ?? 'cold-email',
  };
  const scores: CandidateScores = {
    train: split('train', train),
    holdout: split('holdout', holdout),
    all: split('train', { ...train, ...holdout }),
    ...(options.test ? { test: split('test', options.test) } : {}),
  };
  return {
    overview,
    evaluation: { source: options.source ?? 'final', iteration: 3, samples: 1, scores },
    prompt: options.prompt ?? 'Write a cold email.',
    judges: options.judges ?? ['anthropic:claude-sonnet-4-5'],
  };
}

describe('compareRuns', () => {
  it('pairs the cases both runs scored: B − A per case, its mean, a two-sided 95% t interval and the tally', () => {
    const a = side('A', { c1: 0.5, c2: 0.6, c3: 0.7, c4: 0.4 }, { h1: 0.5 });
    const b = side('B', { c1: 0.7, c2: 0.6, c3: 0.9, c4: 0.5 }, { h1: 0.6 });
    const cmp = compareRuns(a, b);
    const d = cmp.cases.map((c) => c.d as number);
    expect(d.map((x) => Number(x.toFixed(6)))).toEqual([0.2, 0, 0.2, 0.1, 0.1]);
    expect(cmp.paired).not.toBeNull();
    const p = cmp.paired!;
    expect(p.n).toBe(5);
    expect(p.mean).toBeCloseTo(0.12, 12);
    // sd of [0.2, 0, 0.2, 0.1, 0.1] = 0.083666…; t(0.975, 4) = 2.776445105…
    const half = 2.7764451051977987 * (0.0836660026534076 / Math.sqrt(5));
    expect(p.lo).toBeCloseTo(0.12 - half, 9);
    expect(p.hi).toBeCloseTo(0.12 + half, 9);
    expect({ wins: p.wins, losses: p.losses, ties: p.ties }).toEqual({ wins: 4, losses: 0, ties: 1 });
    expect(cmp.cases.find((c) => c.caseId === 'h1')?.split).toBe('holdout');
    expect(cmp.caveats).toEqual([]);
  });

  it('names the cases only one run scored and leaves them out of the interval', () => {
    const cmp = compareRuns(
      side('A', { c1: 0.5, c2: 0.5, gone: 0.9 }),
      side('B', { c1: 0.6, c2: 0.7, added: 0.1 }),
    );
    expect(cmp.onlyInA).toEqual(['gone']);
    expect(cmp.onlyInB).toEqual(['added']);
    expect(cmp.paired?.n).toBe(2);
    expect(cmp.cases.find((c) => c.caseId === 'gone')).toMatchObject({ a: 0.9, b: null, d: null });
  });

  it('includes the sealed test cases a final check scored', () => {
    const cmp = compareRuns(
      side('A', { c1: 0.5 }, {}, { test: { t1: 0.4 } }),
      side('B', { c1: 0.5 }, {}, { test: { t1: 0.8 } }),
    );
    expect(cmp.cases.find((c) => c.caseId === 't1')).toMatchObject({
      split: 'test',
      d: expect.closeTo(0.4, 12),
    });
  });

  it('says what weakens the comparison: other experiment, other judge, a final check against a decided score', () => {
    const cmp = compareRuns(
      side('A', { c1: 0.5, c2: 0.4 }, {}, { source: 'decided', judges: ['openai:gpt-4o'] }),
      side('B', { c1: 0.6, c2: 0.4 }, {}, { experiment: 'inbox-replies' }),
    );
    expect(cmp.caveats).toEqual([
      'the runs are of different experiments (cold-email and inbox-replies)',
      'one run has a final check and the other does not: a final check is a fresh evaluation, a decided score is the one the loop kept',
      'the judges differ (openai:gpt-4o and anthropic:claude-sonnet-4-5): their scores are on different scales',
    ]);
  });

  it('a run with no evaluation yet: no cases, no interval, and it is said', () => {
    const empty: RunSide = { ...side('A', {}), evaluation: null, prompt: null };
    const cmp = compareRuns(empty, side('B', { c1: 0.6 }));
    expect(cmp.paired).toBeNull();
    expect(cmp.prompts).toBeNull();
    expect(cmp.onlyInB).toEqual(['c1']);
    expect(cmp.caveats).toContain('A scored no evaluation yet: nothing to compare case by case');
  });

  it('diffs the two best prompts line by line', () => {
    const cmp = compareRuns(
      side('A', { c1: 0.5 }, {}, { prompt: 'Line one.\nLine two.\n' }),
      side('B', { c1: 0.5 }, {}, { prompt: 'Line one.\nLine 2.\n' }),
    );
    expect(cmp.prompts?.identical).toBe(false);
    const changed = cmp.prompts!.hunks.flatMap((h) => h.lines).filter((l) => l.op !== 'context');
    expect(changed.map((l) => `${l.op} ${l.text}`)).toEqual(['remove Line two.', 'add Line 2.']);
  });
});
