/**
 * The checks signal: the weighted mean of check scores over (case × sample × check). Every
 * declared check of every slot is in the denominator; a failed generation or a missing
 * outcome scores 0 there. A gate check that did not pass anywhere makes the candidate ineligible.
 */
import type { SampleChecks } from '../checks/check-result.js';
import { slotKey, slotsByCase } from './output-slots.js';
import type { GateFailure, OutputRecord, ScoringCase } from './types.js';

export interface ChecksSignalInput {
  cases: ScoringCase[];
  samples: number;
  outputs: OutputRecord[];
  checks: SampleChecks[];
}

export interface ChecksSignal {
  /** Undefined when no case in scope has a check with weight. */
  value: number | undefined;
  /** Per case, for the cases with weighted checks. */
  perCase: Record<string, number>;
  gateFailed: boolean;
  gateFailures: GateFailure[];
}

export function checksSignal(input: ChecksSignalInput): ChecksSignal {
  const outcomesBySlot = new Map(
    input.checks.map((entry) => [slotKey(entry.caseId, entry.sample), entry.outcomes]),
  );
  const slots = slotsByCase(input.cases, input.samples, input.outputs);
  const perCase: Record<string, number> = {};
  const gateFailures: GateFailure[] = [];
  let totalWeighted = 0;
  let totalWeight = 0;
  for (const scoringCase of input.cases) {
    let caseWeighted = 0;
    let caseWeight = 0;
    for (const slot of slots.get(scoringCase.id) ?? []) {
      const outcomes = slot.ok ? (outcomesBySlot.get(slotKey(slot.caseId, slot.sample)) ?? []) : [];
      scoringCase.checks.forEach((declared, index) => {
        const outcome = outcomes[index];
        const score = outcome?.score ?? 0;
        caseWeighted += declared.weight * score;
        caseWeight += declared.weight;
        if ((declared.gate || outcome?.gate) && outcome?.pass !== true) {
          gateFailures.push({
            caseId: slot.caseId,
            sample: slot.sample,
            check: declared.name,
            reason: !slot.ok ? 'generation failed' : (outcome?.reason ?? 'no result for this check'),
          });
        }
      });
    }
    if (caseWeight > 0) perCase[scoringCase.id] = caseWeighted / caseWeight;
    totalWeighted += caseWeighted;
    totalWeight += caseWeight;
  }
  return {
    value: totalWeight > 0 ? totalWeighted / totalWeight : undefined,
    perCase,
    gateFailed: gateFailures.length > 0,
    gateFailures,
  };
}
