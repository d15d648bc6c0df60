/** Turns validated draft cases into the experiment's cases: each gets its train/holdout split. */
import type { Problem } from '../errors.js';
import type { DraftCase } from './cases/load-cases.js';
import { assignSplits } from './cases/split.js';
import type { KeyPath } from './key-path.js';
import type { Search } from './schema.js';
import type { Case } from './types.js';
import type { Position } from './yaml-source.js';

export interface PlaceWhere {
  casesFile: string;
  /** experiment.yaml, where `search.holdout` is set. */
  file: string;
  locate(path: KeyPath): Position;
}

export function placeCases(
  drafts: readonly DraftCase[],
  search: Pick<Search, 'holdout' | 'seed'>,
  where: PlaceWhere,
): { cases: Case[]; problems: Problem[] } {
  const result = assignSplits(
    drafts.map((c) => ({ id: c.id, label: c.label })),
    search.holdout,
    search.seed,
  );
  const problems: Problem[] = [];
  const shareAt = { file: where.file, ...where.locate(['search', 'holdout']) };
  if (result.noTrain) {
    const first = drafts[0] as DraftCase;
    problems.push({
      severity: 'error',
      location: { file: where.casesFile, ...first.locate(['split']) },
      keyPath: `[${first.index}].split`,
      message: 'every case is labelled `split: holdout`, which leaves no train case',
      hint: 'the mutator learns only from train cases; label at least one case `train` or drop some labels',
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
      message: `no holdout case: ${search.holdout} × ${drafts.length} case(s) rounds to 0, so overfitting goes unchecked`,
      hint: 'add cases, raise search.holdout or label a case `split: holdout`',
    });
  }
  const cases = drafts.map(
    (c, i): Case => ({
      id: c.id,
      vars: c.vars,
      checks: c.checks,
      expectations: c.expectations,
      split: result.splits[i] ?? 'train',
      source: { file: where.casesFile, line: c.line },
    }),
  );
  return { cases, problems };
}
