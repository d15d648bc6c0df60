/**
 * Turns validated draft cases into the experiment's cases: each gets its train/holdout split,
 * and its messages their placeholders filled from its vars (once: a case's turns never change).
 */
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
      ...(c.messages ? { messages: c.messages.map((m) => fillMessage(m, c.vars)) } : {}),
      split: result.splits[i] ?? 'train',
      source: { file: where.casesFile, line: c.line },
    }),
  );
  return { cases, problems };
}

/** A turn with its placeholders filled; one missing a value stays as written (validation reports it). */
function fillMessage(message: ChatMessage, vars: Readonly<Record<string, string>>): ChatMessage {
  const complete = findPlaceholders(message.content).every((name) => Object.hasOwn(vars, name));
  return complete ? { ...message, content: renderTemplate(message.content, vars) } : message;
}
