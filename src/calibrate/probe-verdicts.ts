/**
 * The bias probes' verdict rules (docs/design/judge-reliability.md; stated in
 * docs/judge-and-grader.md "Bias probes"), pure: an estimate and its 95% interval become `biased`
 * and one sentence a person can act on. A shift is a bias only when the interval excludes no
 * effect *and* the estimate is large enough to matter; a steady judge's consistency is a problem
 * only when the interval lies clearly below the bar.
 */
import { signed } from '../loop/decide.js';
import type { Effect } from './position-effect.js';
import type { ProbeResult } from './probe-result.js';

/** A change of the weighted score (1–5 scale) this large counts as a bias: a quarter of a point. */
export const MATERIAL_SHIFT = 0.25;
/** The share of outputs that should get identical scores in every repeat. */
export const CONSISTENT_SHARE = 0.8;

type Verdict = Pick<ProbeResult, 'biased' | 'verdict'>;

function bounds([lo, hi]: [number, number]): string {
  return `[${signed(lo)}, ${signed(hi)}]`;
}

function excludesZero([lo, hi]: [number, number]): boolean {
  return lo > 0 || hi < 0;
}

/** Said when nothing was found but the interval still reaches a material shift. */
function widthNote([lo, hi]: [number, number]): string {
  return lo <= -MATERIAL_SHIFT || hi >= MATERIAL_SHIFT
    ? `; the interval is too wide to rule out a shift of ${MATERIAL_SHIFT} — probe more outputs to be sure`
    : '';
}

/** `effect`: the change of an output's weighted score from the last place to the first. */
export function orderVerdict(effect: Effect, outputs: number): Verdict {
  const { estimate, interval } = effect;
  const scale = `on the 1–5 scale, over ${outputs} outputs judged in two opposite orders`;
  if (excludesZero(interval) && Math.abs(estimate) >= MATERIAL_SHIFT) {
    const favours = estimate > 0 ? 'earlier' : 'later';
    return {
      biased: true,
      verdict: `position bias: the judge favours ${favours} outputs — moving an output from last place to first changes its score by ${signed(estimate)} ${bounds(interval)} ${scale}`,
    };
  }
  const small = excludesZero(interval) ? `a small position effect below ${MATERIAL_SHIFT}: ` : '';
  return {
    biased: false,
    verdict: `no position bias detected: ${small}moving an output from last place to first changes its score by ${signed(estimate)} ${bounds(interval)} ${scale}${widthNote(interval)}`,
  };
}

/** `effect`: the mean change of the weighted score when each output is padded with neutral filler. */
export function lengthVerdict(effect: Effect, outputs: number): Verdict {
  const { estimate, interval } = effect;
  const change = `padding every output with neutral filler, half its length again, changed scores by ${signed(estimate)} ${bounds(interval)} on average on the 1–5 scale, over ${outputs} outputs`;
  if (interval[0] > 0 && estimate >= MATERIAL_SHIFT)
    return { biased: true, verdict: `length bias: the judge rewards length — ${change}` };
  if (interval[1] < 0)
    // The filler adds nothing, so marking it down, by any amount, is judgement, not a bias.
    return { biased: false, verdict: `no length bias: the judge marks the filler down — ${change}` };
  if (interval[0] > 0)
    return {
      biased: false,
      verdict: `no length bias that matters: a small reward for length, below ${MATERIAL_SHIFT} — ${change}`,
    };
  return { biased: false, verdict: `no length bias detected: ${change}${widthNote(interval)}` };
}

/** `identical` of `outputs` got the same scores in all `repeats` judgings; `interval` on that share. */
export function repeatVerdict(
  identical: number,
  outputs: number,
  repeats: number,
  interval: [number, number],
): Verdict {
  const share = identical / outputs;
  const counted = `${identical} of ${outputs} outputs (${percent(share)} [${percent(interval[0])}, ${percent(interval[1])}]) got identical scores in all ${repeats} judgings`;
  if (interval[1] < CONSISTENT_SHARE)
    return {
      biased: true,
      verdict: `inconsistent: only ${counted}; more judge samples (judge \`samples: k\`) or a lower temperature would steady it`,
    };
  if (share >= CONSISTENT_SHARE) return { biased: false, verdict: `consistent: ${counted}` };
  return {
    biased: false,
    verdict: `no clear inconsistency: ${counted}, not clearly below ${percent(CONSISTENT_SHARE)}`,
  };
}

function percent(share: number): string {
  return `${Math.round(share * 100)}%`;
}
