/**
 * How each judge criterion and each check moved across iterations, and which checks never
 * told candidates apart. A check that passes (or fails) on every candidate adds a constant to
 * every score: it cannot steer the search, and a person should know.
 */
import { parseChecks } from './artifact-schemas.js';
import type { IterationFolder } from './run-folder.js';

export interface Trend {
  key: string;
  /** One value per iteration of the table (null where the iteration has none). */
  values: (number | null)[];
  /** The scale the values live on: criteria 1–5, check pass rates 0–1. */
  min: number;
  max: number;
}

export interface FlatCheck {
  name: string;
  type: string;
  /** `pass`: passed on every output of every candidate; `fail`: failed on every one. */
  verdict: 'pass' | 'fail';
  candidates: number;
}

/** Judge criteria per iteration, from the decided candidate's evaluations (1–5). */
export function buildCriteriaTrends(perIteration: readonly Record<string, number>[]): Trend[] {
  const keys = [...new Set(perIteration.flatMap((criteria) => Object.keys(criteria)))].sort();
  return keys.map((key) => ({
    key,
    values: perIteration.map((criteria) => criteria[key] ?? null),
    min: 1,
    max: 5,
  }));
}

/** Check pass rates per iteration, over the decided candidate's outputs (0–1). */
export function buildCheckTrends(decided: readonly (unknown | null)[]): Trend[] {
  const rates = decided.map((checks) => passRates(checks));
  const keys = [...new Set(rates.flatMap((r) => [...r.keys()]))].sort();
  return keys.map((key) => ({
    key,
    values: rates.map((r) => r.get(key)?.rate ?? null),
    min: 0,
    max: 1,
  }));
}

/** Checks whose pass rate is 1 on every candidate (or 0 on every one), over at least two candidates. */
export function findFlatChecks(iterations: readonly IterationFolder[]): FlatCheck[] {
  const seen = new Map<string, { type: string; rates: number[] }>();
  for (const iteration of iterations) {
    for (const candidate of iteration.candidates) {
      for (const [name, { rate, type }] of passRates(candidate.checks)) {
        const entry = seen.get(name) ?? { type, rates: [] };
        entry.rates.push(rate);
        seen.set(name, entry);
      }
    }
  }
  const flat: FlatCheck[] = [];
  for (const [name, { type, rates }] of seen) {
    if (rates.length < 2) continue;
    if (rates.every((r) => r === 1)) flat.push({ name, type, verdict: 'pass', candidates: rates.length });
    else if (rates.every((r) => r === 0))
      flat.push({ name, type, verdict: 'fail', candidates: rates.length });
  }
  return flat.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function passRates(checks: unknown): Map<string, { rate: number; type: string }> {
  const counts = new Map<string, { passed: number; total: number; type: string }>();
  for (const group of parseChecks(checks) ?? []) {
    for (const outcome of group.outcomes) {
      const c = counts.get(outcome.name) ?? { passed: 0, total: 0, type: outcome.type };
      c.total += 1;
      if (outcome.pass) c.passed += 1;
      counts.set(outcome.name, c);
    }
  }
  return new Map([...counts].map(([name, c]) => [name, { rate: c.passed / c.total, type: c.type }]));
}
