/**
 * Drift-anchor settings (docs/design/judge-reliability.md, `judging.anchors`,
 * `judging.anchor_every`) with their defaults, read in one place: by the loop that re-judges the
 * anchors (src/loop/judge-anchors.ts) and by the plan that counts what that costs (count-calls.ts).
 */
import type { Experiment } from './types.js';

export const DEFAULT_ANCHORS = 4;
export const DEFAULT_ANCHOR_EVERY = 5;

export interface AnchorSettings {
  anchors: number;
  every: number;
}

/** The anchor settings, or null when there is nothing to anchor (off, or no judge). */
export function anchorSettings(
  experiment: Pick<Experiment, 'config' | 'rubric' | 'models'>,
): AnchorSettings | null {
  const { judging } = experiment.config;
  const anchors = judging.anchors ?? DEFAULT_ANCHORS;
  if (anchors === 0 || experiment.rubric === undefined || experiment.models.judge === undefined) return null;
  return { anchors, every: judging.anchor_every ?? DEFAULT_ANCHOR_EVERY };
}
