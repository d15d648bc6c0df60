/**
 * Turns validated draft cases into the experiment's cases: each gets its train/holdout/test
 * split, and its messages their placeholders filled from its vars (once: a case's turns never
 * change).
 */
import { dirname, resolve } from 'node:path';
import type { Problem } from '../errors.js';
import type { DraftCase } from './cases/load-cases.js';
import { assignSplits } from './cases/split.js';
import type { KeyPath } from './key-path.js';
import type { Search } from './schema.js';
import type { Case } from './types.js';
import type { Position } from './yaml-source.js';
import type { ChatMessage } from '../providers/types.js';
import { findPlaceholders, renderTemplate } from './template.js';

export interface PlaceWhere {
  casesFile: string;
  /** experiment.yaml, where `search.holdout` and `search.test` are set. */
  file: string;
  locate(path: KeyPath): Position;
}

export function placeCases(
  drafts: readonly DraftCase[],
  search: Pick<Search, 'holdout' | 'test' | 'seed' | 'group_by'>,
  where: PlaceWhere,
): { cases: Case[]; problems: Problem[] } {
  const result = assignSplits(
    drafts.map((c) => ({ id: c.id, label: c.label })),
    { holdout: search.holdout, test: search.test },
    search.seed,
  );
  const problems: Problem[] = [];
  const shareAt = { file: where.file, ...where.locate(['search', 'holdout']) };
  const testAt = { file: where.file, ...where.locate(['search', 'test']) };
  const overCap = search.holdout + search.test > 0.9;
  if (overCap) {
    problems.push({
      severity: 'error',
      location: testAt,
      keyPath: 'search.test',
      message: `search.holdout (${search.holdout}) + search.test (${search.test}) is ${round(search.holdout + search.test)}, above 0.9`,
      hint: 'the two shares together must leave at least a tenth of the cases to train on; lower one of them',
    });
  }
  if (result.noTrain && drafts.every((c) => c.label !== undefined)) {
    const first = drafts[0] as DraftCase;
    problems.push({
      severity: 'error',
      location: { file: where.casesFile, ...first.locate(['split']) },
      keyPath: `[${first.index}].split`,
      message: 'every case is labelled `split: holdout` or `split: test`, which leaves no train case',
      hint: 'the mutator learns only from train cases; label at least one case `train` or drop some labels',
    });
  } else if (result.noTrain && !overCap) {
    problems.push({
      severity: 'error',
      location: testAt,
      keyPath: 'search.test',
      message: `a test share of ${search.test} draws ${result.testTarget} of ${drafts.length} cases, which leaves no train case`,
      hint: 'the mutator learns only from train cases; add cases, lower search.test or label a case `split: train`',
    });
  } else if (result.capped) {
    const holdout = result.splits.filter((s) => s === 'holdout').length;
    problems.push({
      severity: 'warning',
      location: shareAt,
      keyPath: 'search.holdout',
      message: `a holdout share of ${search.holdout} asks for ${result.target} of ${drafts.length} cases, which would leave no train case; ${holdout} go to holdout`,
      hint: 'add cases or lower search.holdout',
    });
  } else if (search.holdout > 0 && !result.splits.includes('holdout')) {
    problems.push({
      severity: 'warning',
      location: shareAt,
      keyPath: 'search.holdout',
      message:
        result.target === 0
          ? `no holdout case: ${search.holdout} × ${drafts.length} case(s) rounds to 0, so overfitting goes unchecked`
          : `no holdout case: the test split drew the ${result.target} holdout case(s), so overfitting goes unchecked during the run`,
      hint: 'add cases, raise search.holdout or label a case `split: holdout`',
    });
  }
  problems.push(...missingGroups(drafts, search.group_by, where));
  const cases = drafts.map(
    (c, i): Case => ({
      id: c.id,
      vars: c.vars,
      checks: c.checks,
      expectations: c.expectations,
      ...(c.messages ? { messages: c.messages.map((m) => fillMessage(m, c.vars)) } : {}),
      ...(c.fixtures === undefined ? {} : { fixtures: resolve(dirname(where.casesFile), c.fixtures) }),
      split: result.splits[i] ?? 'train',
      ...groupOf(c, search.group_by),
      source: { file: where.casesFile, line: c.line },
    }),
  );
  return { cases, problems };
}

/** A case's own `group:` key, else the value of the var `search.group_by` names. */
function groupOf(c: DraftCase, groupBy: string | undefined): { group?: string } {
  if (c.group !== undefined) return { group: c.group };
  if (groupBy === undefined) return {};
  const value = c.vars[groupBy];
  return value === undefined ? {} : { group: value };
}

/** `search.group_by` names a var some case lacks (and gives no `group:` of its own). */
function missingGroups(
  drafts: readonly DraftCase[],
  groupBy: string | undefined,
  where: PlaceWhere,
): Problem[] {
  if (groupBy === undefined) return [];
  const missing = drafts.filter((c) => c.group === undefined && !Object.hasOwn(c.vars, groupBy));
  const first = missing[0];
  if (first === undefined) return [];
  return [
    {
      severity: 'error',
      location: { file: where.casesFile, ...first.locate(['vars']) },
      keyPath: `[${first.index}].vars.${groupBy}`,
      message: `search.group_by is \`${groupBy}\`, and ${missing.length} case${missing.length === 1 ? '' : 's'} (the first \`${first.id}\`) ha${missing.length === 1 ? 's' : 've'} no var \`${groupBy}\``,
      hint: `give every case a \`${groupBy}\` var or its own \`group:\` key, or fix search.group_by in ${where.file}`,
    },
  ];
}

function round(share: number): number {
  return Math.round(share * 1000) / 1000;
}

/** A turn with its placeholders filled; one missing a value stays as written (validation reports it). */
function fillMessage(message: ChatMessage, vars: Readonly<Record<string, string>>): ChatMessage {
  const complete = findPlaceholders(message.content).every((name) => Object.hasOwn(vars, name));
  return complete ? { ...message, content: renderTemplate(message.content, vars) } : message;
}
