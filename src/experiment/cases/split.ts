/**
 * The train/holdout/test split (docs/design/experiment-format.md,
 * docs/design/paired-acceptance.md). Explicit labels are honoured. Ranking by hash, not by
 * position, means adding a case never reorders the others: only counts move.
 *
 * Holdout, the version-1 rule: every case not labelled train or holdout is ranked by
 * sha256(`${seed}:${id}`) and the first ones go to holdout until it totals
 * round(holdout share × cases), always leaving at least one train case. Cases labelled `test`
 * take part in this draw as if unlabelled, so labelling a case `test` moves no other case.
 *
 * Test, the sealed split: the cases labelled `test`, then the unlabelled ones ranked by
 * sha256(`test:${seed}:${id}`) until it totals round(test share × cases). A test pick
 * overrides the case's version-1 split, so a train case stays train or becomes test and a
 * holdout case stays holdout or becomes test: adding a test share never moves a case between
 * train and holdout. The holdout share therefore reads as before, a share of all cases, of
 * which the test draw takes its own share at random (about holdout share × the non-test
 * cases remain holdout). When the test draw leaves no train case, `noTrain` says so.
 */
import { sha256Hex } from '../../sha256.js';
import type { Split } from '../types.js';

export interface SplitInput {
  id: string;
  label?: Split | undefined;
}

export interface SplitShares {
  holdout: number;
  test: number;
}

export interface SplitResult {
  /** One split per input, in input order. */
  splits: Split[];
  /** round(holdout share × cases): the holdout size the share asks for before the test draw. */
  target: number;
  /** round(test share × cases): the test size the share asks for. */
  testTarget: number;
  /** True when the holdout share had to give way so that a train case remains. */
  capped: boolean;
  /** True when the labels or the test draw leave no train case at all. */
  noTrain: boolean;
}

export function rankKey(seed: number, id: string): string {
  return sha256Hex(`${seed}:${id}`);
}

export function testRankKey(seed: number, id: string): string {
  return sha256Hex(`test:${seed}:${id}`);
}

export function assignSplits(cases: readonly SplitInput[], shares: SplitShares, seed: number): SplitResult {
  const target = Math.round(shares.holdout * cases.length);
  const testTarget = Math.round(shares.test * cases.length);
  const isDrawn = (c: SplitInput) => c.label === undefined || c.label === 'test';
  const explicitHoldout = cases.filter((c) => c.label === 'holdout').length;
  const explicitTrain = cases.filter((c) => c.label === 'train').length;
  const explicitTest = cases.filter((c) => c.label === 'test').length;

  const drawn = rank(cases, isDrawn, (c) => rankKey(seed, c.id));
  const wanted = Math.max(0, target - explicitHoldout);
  const room = explicitTrain > 0 ? drawn.length : Math.max(0, drawn.length - 1);
  const take = Math.min(wanted, room);
  const holdout = new Set(drawn.slice(0, take));

  const unlabelled = rank(
    cases,
    (c) => c.label === undefined,
    (c) => testRankKey(seed, c.id),
  );
  const test = new Set(unlabelled.slice(0, Math.max(0, testTarget - explicitTest)));

  const splits = cases.map((c, index): Split => {
    if (c.label === 'test' || test.has(index)) return 'test';
    return c.label ?? (holdout.has(index) ? 'holdout' : 'train');
  });
  return {
    splits,
    target,
    testTarget,
    capped: take < wanted,
    noTrain: !splits.includes('train'),
  };
}

/** The indexes of the cases `include` keeps, in the order of their keys. */
function rank(
  cases: readonly SplitInput[],
  include: (c: SplitInput) => boolean,
  keyOf: (c: SplitInput) => string,
): number[] {
  return cases
    .map((c, index) => ({ index, c }))
    .filter(({ c }) => include(c))
    .map(({ index, c }) => {
      const key = keyOf(c);
      // The key's first 48 bits as a number order the keys as their hex does, and compare
      // far faster than strings when a file holds hundreds of thousands of cases.
      return { index, key, head: Number.parseInt(key.slice(0, 12), 16) };
    })
    .sort((a, b) => a.head - b.head || (a.key < b.key ? -1 : a.key > b.key ? 1 : a.index - b.index))
    .map((u) => u.index);
}
