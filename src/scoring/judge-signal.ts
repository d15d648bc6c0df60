/**
 * The judge signal (docs/design/scoring-and-decisions.md): per output, the rubric-weighted mean of
 * its criterion means, normalised so 1 → 0 and 5 → 1; the signal is the mean over all outputs. A
 * failed generation is never judged and sits at the floor (every criterion 1), as does an output
 * without a judge record.
 */
import { slotKey, slotsByCase } from './output-slots.js';
import type { CriterionWeight, JudgeRecord, OutputRecord, ScoringCase } from './types.js';

export interface JudgeSignalInput {
  cases: ScoringCase[];
  samples: number;
  outputs: OutputRecord[];
  judge: { criteria: CriterionWeight[]; scores: JudgeRecord[] };
}

export interface JudgeSignal {
  /** Undefined when there are no outputs in scope. */
  value: number | undefined;
  perCase: Record<string, number>;
  /** Per criterion, the mean on 1..5 over the outputs in scope. */
  criteria: Record<string, number>;
}

const FLOOR = 1;

/** The weighted mean of one output's criteria, normalised to 0..1; all-zero weights count equally. */
export function normaliseCriteria(scores: Record<string, number>, criteria: CriterionWeight[]): number {
  const totalWeight = criteria.reduce((sum, criterion) => sum + criterion.weight, 0);
  const weightOf = (criterion: CriterionWeight): number =>
    totalWeight > 0 ? criterion.weight / totalWeight : 1 / criteria.length;
  const mean = criteria.reduce(
    (sum, criterion) => sum + weightOf(criterion) * (scores[criterion.key] ?? FLOOR),
    0,
  );
  return (mean - 1) / 4;
}

export function judgeSignal(input: JudgeSignalInput): JudgeSignal {
  const { criteria } = input.judge;
  const recordBySlot = new Map(
    input.judge.scores.map((record) => [slotKey(record.caseId, record.sample), record]),
  );
  const slots = slotsByCase(input.cases, input.samples, input.outputs);
  const sums: Record<string, number> = Object.fromEntries(criteria.map((criterion) => [criterion.key, 0]));
  const perCase: Record<string, number> = {};
  let total = 0;
  let count = 0;
  for (const scoringCase of input.cases) {
    let caseTotal = 0;
    let caseCount = 0;
    for (const slot of slots.get(scoringCase.id) ?? []) {
      const record = slot.ok ? recordBySlot.get(slotKey(slot.caseId, slot.sample)) : undefined;
      const scores: Record<string, number> = {};
      for (const criterion of criteria) {
        const score = record?.criteria[criterion.key] ?? FLOOR;
        scores[criterion.key] = score;
        sums[criterion.key] = (sums[criterion.key] ?? 0) + score;
      }
      caseTotal += normaliseCriteria(scores, criteria);
      caseCount++;
    }
    if (caseCount > 0) perCase[scoringCase.id] = caseTotal / caseCount;
    total += caseTotal;
    count += caseCount;
  }
  const averages: Record<string, number> = {};
  if (count > 0)
    for (const criterion of criteria) averages[criterion.key] = (sums[criterion.key] ?? 0) / count;
  return { value: count > 0 ? total / count : undefined, perCase, criteria: averages };
}
