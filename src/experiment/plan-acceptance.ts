/**
 * The acceptance part of `validate`'s plan (docs/design/paired-acceptance.md): which rule decides,
 * with its settings, and under paired statistics the smallest gain the experiment's train cases and
 * samples can detect — so a user learns before a night's run that 12 cases cannot resolve a gain of
 * 0.01.
 */
import { detectableEffect, lookConfidence } from '../loop/paired.js';
import { acceptanceOf, minibatchSize } from './acceptance.js';
import type { Search } from './schema.js';

/**
 * The spread (sd) of per-case differences between two prompts at one sample per case, assumed
 * before any run has measured it. A case's score moves by about 0.1 from one sample to the next
 * (a judge point on a 1–5 scale is 0.25 of the score, and the checks and expectations average
 * it down); the difference of two such scores spreads by about 0.1 · √2 ≈ 0.15.
 */
export const DEFAULT_DIFFERENCE_SD = 0.15;

/** The power `validate` reports the detectable effect at. */
export const DETECTION_POWER = 0.8;

/** What a run measured, as src/run/measured-noise.ts reads it. */
export interface NoiseSource {
  runId: string;
  decisions: number;
  sdPerSample: number;
}

export interface DetectableEffect {
  /** The smallest true mean gain detected with power 0.8; null below 2 train cases (or groups). */
  effect: number | null;
  cases: number;
  samples: number;
  /** The sd of per-case differences at these samples. */
  sd: number;
  /**
   * With groups of cases: how many the train cases form, and the smallest gain the interval on
   * group means detects at best (cases within a group no more alike than across groups). The
   * gain above is then this one. null without groups.
   */
  groups: { count: number; ungroupedEffect: number | null } | null;
  /** Where the sd comes from: a run's paired decisions, or the default. */
  from: { run: string; decisions: number } | { default: number };
  /** Said when the effect is larger than min_effect. */
  warning: string | null;
}

export type PlanAcceptance =
  | {
      rule: 'paired';
      confidence: number;
      /** Each look's confidence: 1 − (1 − c)/2 when a retest may follow. */
      lookConfidence: number;
      minEffect: number;
      retest: number;
      /** Train cases each proposal is screened on; null when screening is off (minibatch ≥ train cases). */
      minibatch: number | null;
      detectable: DetectableEffect;
    }
  | {
      rule: 'margin';
      minImprovement: number | 'auto';
      noiseRepeats: number;
      confirm: boolean;
    };

export function describeAcceptance(
  search: Search,
  trainCases: number,
  measured: NoiseSource | null,
  /** Groups the train cases form; null without groups. */
  trainGroups: number | null = null,
): PlanAcceptance {
  if (acceptanceOf(search) === 'margin') {
    return {
      rule: 'margin',
      minImprovement: search.min_improvement,
      noiseRepeats: search.noise_repeats,
      confirm: search.confirm,
    };
  }
  const look = lookConfidence(search.confidence, search.retest);
  const size = minibatchSize(search, trainCases);
  const perSample = measured?.sdPerSample ?? DEFAULT_DIFFERENCE_SD;
  const sd = perSample / Math.sqrt(search.samples);
  const ungrouped = detectableEffect(trainCases, sd, look, DETECTION_POWER);
  const effect =
    trainGroups === null ? ungrouped : groupedDetectableEffect(trainCases, trainGroups, sd, look);
  const tooCoarse = effect !== null && effect > search.min_effect;
  const inGroups = trainGroups === null ? '' : ` in ${trainGroups} groups`;
  return {
    rule: 'paired',
    confidence: search.confidence,
    lookConfidence: look,
    minEffect: search.min_effect,
    retest: search.retest,
    minibatch: size < trainCases ? size : null,
    detectable: {
      effect,
      cases: trainCases,
      samples: search.samples,
      sd,
      groups: trainGroups === null ? null : { count: trainGroups, ungroupedEffect: ungrouped },
      from: measured
        ? { run: measured.runId, decisions: measured.decisions }
        : { default: DEFAULT_DIFFERENCE_SD },
      warning: tooCoarse
        ? `with ${trainCases} train cases${inGroups} this can only detect gains of about ${round(effect)}, above min_effect ${search.min_effect}: add ${trainGroups === null ? 'cases' : 'groups'} or samples`
        : null,
    },
  };
}

/**
 * The smallest gain the interval on G group means detects: `detectableEffect` with G and the sd
 * of a group's mean difference, taken at its best — cases within a group no more alike than
 * across groups, so a group of n/G cases averages the per-case sd down by √(n/G). Related cases
 * only make it larger.
 */
export function groupedDetectableEffect(
  cases: number,
  groups: number,
  sd: number,
  confidence: number,
): number | null {
  if (groups < 2) return null;
  return detectableEffect(groups, sd / Math.sqrt(cases / groups), confidence, DETECTION_POWER);
}

/** Two significant digits: a detectable effect is an order of magnitude, not a measurement. */
export function round(value: number): string {
  return String(Number(value.toPrecision(2)));
}
