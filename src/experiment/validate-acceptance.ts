/**
 * The acceptance rule's settings against the cases they will decide on
 * (docs/design/paired-acceptance.md): paired statistics need at least two train cases, and a few
 * version-1 keys mean nothing under them. A setting that is read but does nothing is a warning; a
 * rule that cannot decide is an error.
 */
import type { Problem } from '../errors.js';
import { lookConfidence } from '../loop/paired.js';
import { acceptanceOf } from './acceptance.js';
import { groupCount } from './case-groups.js';
import { DEFAULT_DIFFERENCE_SD, groupedDetectableEffect, round } from './plan-acceptance.js';
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
  cases: readonly Pick<Case, 'split' | 'source' | 'group'>[] | null,
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
  if (cases !== null && train !== null && train >= 2) problems.push(...groupProblems(search, cases, where));
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
 * Below this many train groups the interval on group means has so few degrees of freedom (its
 * t quantiles at 3 groups are about 2.5 times the normal's) that only a large gain can show.
 */
export const USEFUL_GROUPS = 5;

/**
 * Groups of cases (docs/design/paired-acceptance.md): the interval is on group means, so a split
 * needs 2 groups to decide at all, and a few more to detect a gain of useful size.
 */
function groupProblems(
  search: Search,
  cases: readonly Pick<Case, 'split' | 'source' | 'group'>[],
  where: AcceptanceWhere,
): Problem[] {
  const trainGroups = groupCount(cases, 'train');
  if (trainGroups === null) return [];
  const problems: Problem[] = [];
  const groupBy = search.group_by;
  // Where the groups are declared: the config's group_by, else the cases' `group:` keys.
  const location =
    groupBy === undefined
      ? { file: where.casesFile, ...firstLine(cases.find((c) => c.group !== undefined)) }
      : { file: where.file, ...where.locate(['search', 'group_by']) };
  const keyPath = groupBy === undefined ? 'group' : 'search.group_by';
  const hint =
    'add cases of other kinds (groups), or drop the grouping if the cases of a kind share nothing (they are then decided as independent)';
  if (trainGroups < 2) {
    problems.push({
      severity: 'error',
      location,
      keyPath,
      message: `the train cases form ${trainGroups} group: paired acceptance takes its interval on group means and needs at least 2 train groups`,
      hint,
    });
    return problems;
  }
  const holdoutGroups = groupCount(cases, 'holdout') ?? 0;
  const holdoutCases = cases.filter((c) => c.split === 'holdout').length;
  if (holdoutCases > 0 && holdoutGroups < 2) {
    problems.push({
      severity: 'warning',
      location,
      keyPath,
      message: `the holdout cases form ${holdoutGroups} group: with fewer than 2 groups the holdout has no interval, so only its mean can hold a candidate back`,
      hint: 'label cases of two or more kinds `split: holdout`, or raise search.holdout',
    });
  }
  if (trainGroups < USEFUL_GROUPS) {
    const trainCases = cases.filter((c) => c.split === 'train').length;
    const look = lookConfidence(search.confidence, search.retest);
    const sd = DEFAULT_DIFFERENCE_SD / Math.sqrt(search.samples);
    const effect = groupedDetectableEffect(trainCases, trainGroups, sd, look);
    problems.push({
      severity: 'warning',
      location,
      keyPath,
      message: `only ${trainGroups} train groups: the interval on group means has ${trainGroups - 1} degree${trainGroups === 2 ? '' : 's'} of freedom, so the smallest gain it detects is about ${effect === null ? '—' : round(effect)} at best (power 0.8, a per-case sd of ${DEFAULT_DIFFERENCE_SD}; the plan gives the figure from your last run)`,
      hint: `${USEFUL_GROUPS} or more groups make the interval useful; ${hint}`,
    });
  }
  return problems;
}

function firstLine(c: Pick<Case, 'source'> | undefined): { line?: number } {
  return c?.source.line === undefined ? {} : { line: c.source.line };
}

/**
 * Under `acceptance: margin` the pool has no admission rule: a pareto search needs paired statistics
 * (docs/design/pareto-search.md).
 */
function marginProblems(search: Search, at: (path: KeyPath) => Problem['location']): Problem[] {
  const groupBy: Problem[] =
    search.group_by === undefined
      ? []
      : [
          {
            severity: 'warning',
            location: at(['search', 'group_by']),
            keyPath: 'search.group_by',
            message: '`group_by` belongs to paired acceptance and is ignored under `acceptance: margin`',
            hint: 'the margin rule compares whole-set means and has no interval to group; remove `group_by` or use paired acceptance',
          },
        ];
  if (search.strategy !== 'pareto') return groupBy;
  return [
    ...groupBy,
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
