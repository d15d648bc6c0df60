/**
 * The acceptance rule's settings against the cases they will decide on
 * (docs/design/paired-acceptance.md): paired statistics need at least two train cases, and a few
 * version-1 keys mean nothing under them. A setting that is read but does nothing is a warning; a
 * rule that cannot decide is an error.
 */
import type { Problem } from '../errors.js';
import { acceptanceOf } from './acceptance.js';
import type { KeyPath } from './key-path.js';
import type { Search } from './schema.js';
import type { Case } from './types.js';
import type { Position } from './yaml-source.js';

export interface AcceptanceWhere {
  /** experiment.yaml */
  file: string;
  locate(path: KeyPath): Position;
  /** Whether experiment.yaml has a `search:` key at all (else a problem points at the cases). */
  hasSearch: boolean;
  casesFile: string;
}

export function validateAcceptance(
  search: Search,
  /** null: the cases could not all be read, so their count proves nothing. */
  cases: readonly Pick<Case, 'split' | 'source'>[] | null,
  where: AcceptanceWhere,
): Problem[] {
  const at = (path: KeyPath) => ({ file: where.file, ...where.locate(path) });
  if (acceptanceOf(search) !== 'paired') return marginProblems(search, at);
  const problems: Problem[] = [];
  const train = cases === null ? null : cases.filter((c) => c.split === 'train').length;
  // No train case at all is already an error of the split (place-cases.ts).
  if (train === 1) {
    const first = cases?.[0];
    problems.push({
      severity: 'error',
      location: where.hasSearch
        ? at(['search', 'acceptance'])
        : { file: where.casesFile, ...(first?.source.line === undefined ? {} : { line: first.source.line }) },
      keyPath: 'search.acceptance',
      message:
        'paired acceptance compares candidate and incumbent case by case and needs at least 2 train cases; this experiment has 1',
      hint: 'add cases (or lower search.holdout), or set `acceptance: margin` in search',
    });
  }
  if (search.confirm) {
    problems.push({
      severity: 'warning',
      location: at(['search', 'confirm']),
      keyPath: 'search.confirm',
      message: '`confirm` belongs to `acceptance: margin` and is ignored under paired acceptance',
      hint: 'paired acceptance re-checks an unclear result itself with `search.retest` more samples; remove `confirm`',
    });
  }
  if (typeof search.min_improvement === 'number' && search.acceptance === 'paired') {
    problems.push({
      severity: 'warning',
      location: at(['search', 'min_improvement']),
      keyPath: 'search.min_improvement',
      message: `min_improvement: ${search.min_improvement} is the margin rule's threshold and is ignored under \`acceptance: paired\``,
      hint: `the smallest gain worth keeping is \`min_effect\` under paired (e.g. min_effect: ${search.min_improvement}); or set \`acceptance: margin\``,
    });
  }
  if (search.minibatch !== undefined && train !== null && train > 0 && search.minibatch > train) {
    problems.push({
      severity: 'warning',
      location: at(['search', 'minibatch']),
      keyPath: 'search.minibatch',
      message: `a minibatch of ${search.minibatch} is larger than the ${train} train case${train === 1 ? '' : 's'}, so screening is off: every proposal is evaluated on every case`,
      hint: `a minibatch smaller than ${train} screens proposals first; remove the key for the default min(8, train cases)`,
    });
  }
  return problems;
}

/**
 * Under `acceptance: margin` the pool has no admission rule: a pareto search needs paired statistics
 * (docs/design/pareto-search.md).
 */
function marginProblems(search: Search, at: (path: KeyPath) => Problem['location']): Problem[] {
  if (search.strategy !== 'pareto') return [];
  return [
    {
      severity: 'error',
      location: at(['search', 'strategy']),
      keyPath: 'search.strategy',
      message:
        'the pareto search admits a candidate into its pool by paired statistics against its parent, and this experiment uses `acceptance: margin`',
      hint: 'remove `acceptance: margin` (and a numeric min_improvement), or set `strategy: greedy`',
    },
  ];
}
