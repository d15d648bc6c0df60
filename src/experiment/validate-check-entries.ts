/**
 * Validating the checks as written in experiment.yaml (global) and in cases (per case): each
 * entry that passed the schema is validated against the check registry (known type, `not-`
 * prefix, value shapes, regexes that compile, JSON schemas that are valid).
 */
import type { CheckScope } from '../checks/agent/agent-keys.js';
import { validateCheckEntry } from '../checks/registry.js';
import type { Problem } from '../errors.js';
import { formatKeyPath, type KeyPath } from './key-path.js';
import type { CheckEntry } from './schema.js';
import type { Position } from './yaml-source.js';

export interface CheckLocation {
  file: string;
  /** Path of the checks list inside its file, e.g. `checks` or `[3].checks`. */
  base: KeyPath;
  locate(path: KeyPath): Position;
  /** Whether the experiment's cases are agent runs (`file:`, `in: workspace` and the agent types need them). */
  scope: CheckScope;
}

/** `entries` may hold undefined where an entry already failed the schema (reported elsewhere). */
export function validateCheckEntries(
  entries: readonly (CheckEntry | undefined)[],
  where: CheckLocation,
): Problem[] {
  return entries.flatMap((entry, i) =>
    (entry === undefined ? [] : validateCheckEntry(entry, where.scope)).map((issue): Problem => {
      const relative = splitRelativePath(issue.keyPath);
      const path = [...where.base, i, ...relative];
      return {
        severity: 'error',
        location: { file: where.file, ...where.locate(path) },
        keyPath: formatKeyPath(path),
        message: issue.message,
        ...(issue.hint === undefined ? {} : { hint: issue.hint }),
      };
    }),
  );
}

/** `value[2].pattern` → ['value', 2, 'pattern']; '' → []. */
export function splitRelativePath(keyPath: string): (string | number)[] {
  const segments: (string | number)[] = [];
  for (const part of keyPath.match(/[^.[\]]+|\[\d+\]/g) ?? []) {
    segments.push(part.startsWith('[') ? Number(part.slice(1, -1)) : part);
  }
  return segments;
}
