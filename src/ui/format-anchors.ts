/**
 * Drift anchors (docs/design/judge-reliability.md) in words, for `show` and `watch`: the judge's
 * noise measured at the baseline, and each drift check against it. One wording for both, so a
 * warning read in one matches the line in the other.
 */
import type { DriftCheck, JudgeAnchorsState, JudgeNoiseState } from '../run/run-state.js';
import { signed } from './format-figures.js';

/** `noise ±0.083 per output, ±0.024 in a decision (4 anchors re-judged)`. */
export function describeJudgeNoise(noise: Omit<JudgeNoiseState, 'iteration'>): string {
  const decision = noise.decisionNoise === null ? '' : `, ±${noise.decisionNoise.toFixed(3)} in a decision`;
  return `noise ±${noise.noise.toFixed(3)} per output${decision} (${noise.anchors} anchors re-judged)`;
}

/** `drift +0.010 [-0.020,+0.040] on 4 anchors: within noise (±0.040)`. */
export function describeDriftCheck(check: Omit<DriftCheck, 'iteration' | 'baseline'>): string {
  const interval = check.lo === null || check.hi === null ? '' : ` [${signed(check.lo)},${signed(check.hi)}]`;
  const verdict = check.beyondNoise ? 'BEYOND the judge noise' : 'within the judge noise';
  return `drift ${signed(check.mean)}${interval} on ${check.anchors} anchors: ${verdict} (±${check.band.toFixed(3)})`;
}

/** The show header's `Judge` field, or null when the run read no anchors. */
export function describeJudgeAnchors(anchors: JudgeAnchorsState): string | null {
  const parts: string[] = [];
  if (anchors.noise) parts.push(describeJudgeNoise(anchors.noise));
  const last = anchors.checks.at(-1);
  if (last) {
    const count = anchors.checks.length;
    parts.push(
      `${count} drift check${count === 1 ? '' : 's'}, the last at iteration ${last.iteration}: ${describeDriftCheck(last)}`,
    );
    const beyond = anchors.checks.filter((c) => c.beyondNoise).map((c) => c.iteration);
    if (beyond.length > 0)
      parts.push(`beyond noise at iteration${beyond.length === 1 ? '' : 's'} ${beyond.join(', ')}`);
  }
  return parts.length === 0 ? null : parts.join('; ');
}
