/**
 * The (case, sample) grid every signal is computed over. Each case has exactly `samples`
 * slots: its output records in sample order, padded with failed slots when some are
 * missing, so a lost output can never shrink a denominator.
 */
import type { OutputRecord, ScoringCase } from './types.js';

export interface OutputSlot {
  caseId: string;
  sample: number;
  ok: boolean;
}

export function slotKey(caseId: string, sample: number): string {
  return `${caseId}\u0000${sample}`;
}

export function slotsByCase(
  cases: ScoringCase[],
  samples: number,
  outputs: OutputRecord[],
): Map<string, OutputSlot[]> {
  const byCase = new Map<string, OutputSlot[]>();
  for (const scoringCase of cases) byCase.set(scoringCase.id, []);
  for (const output of outputs) {
    const slots = byCase.get(output.caseId);
    // A repeated (case, sample) record keeps its first occurrence.
    if (slots === undefined || slots.some((slot) => slot.sample === output.sample)) continue;
    slots.push({ caseId: output.caseId, sample: output.sample, ok: output.ok });
  }
  for (const [caseId, slots] of byCase) {
    const used = new Set(slots.map((slot) => slot.sample));
    for (let sample = 0; slots.length < samples; sample++) {
      if (!used.has(sample)) slots.push({ caseId, sample, ok: false });
    }
    slots.sort((a, b) => a.sample - b.sample);
  }
  return byCase;
}
