/**
 * `judge-scores.json` (docs/design/judge-protocol.md) and the arithmetic behind it. The runner
 * never trusts a judge's sums: every average and the quality_score are recomputed here.
 */
import type { ChecklistAnswers } from '../scoring/types.js';

export const JUDGE_SCORES_FILE = 'judge-scores.json';
export const SCORE_MIN = 1;
export const SCORE_MAX = 5;

/** The file's shape. (Its zod schema, for readers that must tolerate anything, lives with the report's readers.) */
export interface JudgeScoresFile {
  quality_score: number;
  per_output: {
    file: string;
    criteria_scores: Record<string, number>;
    average: number;
    reasoning: string;
    samples?: Record<string, number>[];
    /**
     * Checklist criteria's answers (docs/design/judge-reliability.md); optional for every judge.
     */
    items?: ChecklistAnswers;
  }[];
  criteria_averages: Record<string, number>;
}

export interface ScoredOutput {
  file: string;
  /** Per criterion, the mean over samples (an integer when there is one sample). */
  criteria: Record<string, number>;
  /** The integer score sets, when the output was scored more than once. */
  samples?: Record<string, number>[];
  reasoning: string;
  items?: ChecklistAnswers;
}

export interface ScoreSummary {
  criteriaAverages: Record<string, number>;
  /** (sum of criteria averages) / (criteria × 5), as in the seed. */
  qualityScore: number;
}

export function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((sum, v) => sum + v, 0) / values.length;
}

export function isValidScore(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= SCORE_MIN && value <= SCORE_MAX;
}

/** Mean per criterion over a set of integer score sets. */
export function meanOfSamples(
  samples: readonly Record<string, number>[],
  keys: readonly string[],
): Record<string, number> {
  return Object.fromEntries(keys.map((key) => [key, mean(samples.map((s) => s[key] ?? 0))]));
}

export function averageOfCriteria(criteria: Record<string, number>, keys: readonly string[]): number {
  return mean(keys.map((key) => criteria[key] ?? 0));
}

export function summariseScores(outputs: readonly ScoredOutput[], keys: readonly string[]): ScoreSummary {
  const criteriaAverages = Object.fromEntries(
    keys.map((key) => [key, mean(outputs.map((o) => o.criteria[key] ?? 0))]),
  );
  const total = keys.reduce((sum, key) => sum + (criteriaAverages[key] ?? 0), 0);
  return { criteriaAverages, qualityScore: keys.length === 0 ? 0 : total / (keys.length * SCORE_MAX) };
}

/** The file the built-in judge writes, from scored outputs (samples kept only when k > 1). */
export function buildJudgeScoresFile(
  outputs: readonly ScoredOutput[],
  keys: readonly string[],
): JudgeScoresFile {
  const summary = summariseScores(outputs, keys);
  return {
    quality_score: summary.qualityScore,
    per_output: outputs.map((o) => ({
      file: o.file,
      criteria_scores: o.criteria,
      average: averageOfCriteria(o.criteria, keys),
      reasoning: o.reasoning,
      ...(o.samples !== undefined && o.samples.length > 1 ? { samples: o.samples } : {}),
      ...(o.items === undefined ? {} : { items: o.items }),
    })),
    criteria_averages: summary.criteriaAverages,
  };
}

/** `JUDGE quality_score=0.7200` */
export function formatJudgeLine(qualityScore: number): string {
  return `JUDGE quality_score=${qualityScore.toFixed(4)}`;
}
