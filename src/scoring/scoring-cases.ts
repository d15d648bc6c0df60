/** Builds scoring's view of the cases from the loaded experiment: each case's checks are the global ones, then its own. */
import { checkName } from '../checks/registry.js';
import type { CheckEntry } from '../experiment/schema.js';
import type { Case } from '../experiment/types.js';
import type { DeclaredCheck, ScoringCase } from './types.js';

export function declareChecks(checks: CheckEntry[]): DeclaredCheck[] {
  return checks.map((entry) => ({
    name: checkName(entry),
    weight: entry.weight ?? 1,
    gate: entry.gate ?? false,
  }));
}

export function toScoringCases(globalChecks: CheckEntry[], cases: Case[]): ScoringCase[] {
  return cases.map((c) => ({
    id: c.id,
    split: c.split,
    checks: declareChecks([...globalChecks, ...c.checks]),
    expectations: c.expectations,
  }));
}
