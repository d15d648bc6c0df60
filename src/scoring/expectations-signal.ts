/**
 * The expectations signal: the pass rate over (case × sample × expectation) for the cases
 * that have expectations. A failed generation fails all its expectations; a slot without a
 * grading fails them too; a flagged PASS (evidence not found in the output) counts as failed.
 * Only the case's own expectation texts count, each once, whatever the grading adds or drops.
 */
import { slotsByCase } from './output-slots.js';
import type { CaseGrading, OutputRecord, ScoringCase } from './types.js';

export interface ExpectationsSignalInput {
  cases: ScoringCase[];
  samples: number;
  outputs: OutputRecord[];
  gradings: CaseGrading[];
}

export interface ExpectationsSignal {
  /** Undefined when no case in scope has expectations. */
  value: number | undefined;
  perCase: Record<string, number>;
}

function countPassed(expected: string[], grading: CaseGrading | undefined): number {
  if (grading === undefined) return 0;
  const remaining = grading.expectations.filter((graded) => graded.passed && graded.flagged !== true);
  let passed = 0;
  for (const text of expected) {
    const index = remaining.findIndex((graded) => graded.text === text);
    if (index !== -1) {
      passed++;
      remaining.splice(index, 1);
    }
  }
  return passed;
}

export function expectationsSignal(input: ExpectationsSignalInput): ExpectationsSignal {
  const slots = slotsByCase(input.cases, input.samples, input.outputs);
  const perCase: Record<string, number> = {};
  let passed = 0;
  let total = 0;
  for (const scoringCase of input.cases) {
    const expected = scoringCase.expectations;
    if (expected.length === 0) continue;
    const gradings = input.gradings.filter((grading) => grading.caseId === scoringCase.id);
    const forWholeCase = gradings.find((grading) => grading.sample === undefined);
    let casePassed = 0;
    let caseTotal = 0;
    for (const slot of slots.get(scoringCase.id) ?? []) {
      const grading = gradings.find((candidate) => candidate.sample === slot.sample) ?? forWholeCase;
      casePassed += slot.ok ? countPassed(expected, grading) : 0;
      caseTotal += expected.length;
    }
    if (caseTotal > 0) perCase[scoringCase.id] = casePassed / caseTotal;
    passed += casePassed;
    total += caseTotal;
  }
  return { value: total > 0 ? passed / total : undefined, perCase };
}
