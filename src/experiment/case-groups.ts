/**
 * How many groups a split's cases form (docs/design/paired-acceptance.md, "Groups of cases"), as
 * the grouped interval counts them: a case without a group is a group of its own. null when no
 * case of the experiment names a group: the interval is then over cases.
 */
import type { Case, Split } from './types.js';

export function groupCount(cases: readonly Pick<Case, 'split' | 'group'>[], split: Split): number | null {
  if (!cases.some((c) => c.group !== undefined)) return null;
  const onSplit = cases.filter((c) => c.split === split);
  const named = new Set(onSplit.flatMap((c) => (c.group === undefined ? [] : [c.group])));
  return named.size + onSplit.filter((c) => c.group === undefined).length;
}
