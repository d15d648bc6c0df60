/**
 * The train/holdout split (SPEC 3). Explicit labels are honoured; the other cases are ranked
 * by sha256(`${seed}:${id}`) and the first ones go to holdout until it totals
 * round(share × cases), always leaving at least one train case. Ranking by hash, not by
 * position, means adding a case never reorders the others: only the count can move.
 */
import { sha256Hex } from '../../sha256.js';
import type { Split } from '../types.js';

export interface SplitInput {
  id: string;
  label?: Split | undefined;
}

export interface SplitResult {
  /** One split per input, in input order. */
  splits: Split[];
  /** round(share × cases): the holdout size the share asks for. */
  target: number;
  /** True when the share had to give way so that a train case remains. */
  capped: boolean;
  /** True when the labels leave no train case at all. */
  noTrain: boolean;
}

export function rankKey(seed: number, id: string): string {
  return sha256Hex(`${seed}:${id}`);
}

export function assignSplits(cases: readonly SplitInput[], share: number, seed: number): SplitResult {
  const target = Math.round(share * cases.length);
  const explicitHoldout = cases.filter((c) => c.label === 'holdout').length;
  const explicitTrain = cases.filter((c) => c.label === 'train').length;
  const unlabelled = cases
    .map((c, index) => ({ index, c }))
    .filter(({ c }) => c.label === undefined)
    .map(({ index, c }) => {
      const key = rankKey(seed, c.id);
      // The key's first 48 bits as a number order the keys as their hex does, and compare
      // far faster than strings when a file holds hundreds of thousands of cases.
      return { index, key, head: Number.parseInt(key.slice(0, 12), 16) };
    })
    .sort((a, b) => a.head - b.head || (a.key < b.key ? -1 : a.key > b.key ? 1 : a.index - b.index));

  const wanted = Math.max(0, target - explicitHoldout);
  const room = explicitTrain > 0 ? unlabelled.length : Math.max(0, unlabelled.length - 1);
  const take = Math.min(wanted, room);
  const holdout = new Set(unlabelled.slice(0, take).map((u) => u.index));

  const splits = cases.map((c, index): Split => c.label ?? (holdout.has(index) ? 'holdout' : 'train'));
  return {
    splits,
    target,
    capped: take < wanted,
    noTrain: !splits.includes('train'),
  };
}
