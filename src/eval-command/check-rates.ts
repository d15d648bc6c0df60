/**
 * Per-check pass rates for a set of cases: for each check (by name, global ones first), how
 * many of the (case × sample) outputs it applies to passed it. A failed generation or a
 * missing outcome counts as a failure, as in scoring, so the rates never flatter.
 */
import { slotKey, slotsByCase } from '../scoring/output-slots.js';
import type { Evaluation, ScoringCase } from '../scoring/types.js';
import type { CheckRate } from './eval-report.js';

export function rateChecks(evaluation: Evaluation, cases: readonly ScoringCase[]): CheckRate[] {
  const outcomesBySlot = new Map(
    evaluation.checks.map((entry) => [slotKey(entry.caseId, entry.sample), entry.outcomes]),
  );
  const slots = slotsByCase([...cases], evaluation.samples, evaluation.outputs);
  const rates = new Map<string, CheckRate>();
  for (const scoringCase of cases) {
    for (const slot of slots.get(scoringCase.id) ?? []) {
      const outcomes = slot.ok ? (outcomesBySlot.get(slotKey(slot.caseId, slot.sample)) ?? []) : [];
      scoringCase.checks.forEach((declared, index) => {
        const key = `${declared.name}\u0000${declared.gate}`;
        const rate = rates.get(key) ?? {
          name: declared.name,
          gate: declared.gate,
          passed: 0,
          total: 0,
          passRate: 0,
        };
        rate.total += 1;
        if (outcomes[index]?.pass === true) rate.passed += 1;
        rates.set(key, rate);
      });
    }
  }
  return [...rates.values()].map((rate) => ({
    ...rate,
    passRate: rate.total === 0 ? 0 : rate.passed / rate.total,
  }));
}

/** Expectations met over (case × sample × expectation), counted as the expectations signal counts them. */
export function countExpectations(
  evaluation: Evaluation,
  cases: readonly ScoringCase[],
): { passed: number; total: number } | null {
  const graded = cases.filter((c) => c.expectations.length > 0);
  if (graded.length === 0) return null;
  const slots = slotsByCase(graded, evaluation.samples, evaluation.outputs);
  let passed = 0;
  let total = 0;
  for (const scoringCase of graded) {
    const gradings = evaluation.gradings.filter((g) => g.caseId === scoringCase.id);
    for (const slot of slots.get(scoringCase.id) ?? []) {
      total += scoringCase.expectations.length;
      if (!slot.ok) continue;
      const grading =
        gradings.find((g) => g.sample === slot.sample) ?? gradings.find((g) => g.sample === undefined);
      // Each graded PASS is used once, so a repeated expectation text needs its own PASS.
      const remaining = (grading?.expectations ?? []).filter((e) => e.passed && e.flagged !== true);
      for (const text of scoringCase.expectations) {
        const index = remaining.findIndex((e) => e.text === text);
        if (index === -1) continue;
        passed += 1;
        remaining.splice(index, 1);
      }
    }
  }
  return { passed, total };
}
