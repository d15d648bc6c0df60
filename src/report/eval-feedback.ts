/**
 * The grader's critique of the evaluation itself (docs/design/grader-protocol.md `eval_feedback`):
 * expectations it found weak or gameable, and its overall remarks, gathered over every graded case
 * and de-duplicated, with where each remark was made.
 */
import { parseGrading } from './artifact-schemas.js';
import type { IterationFolder } from './run-folder.js';

export interface FeedbackItem {
  assertion: string;
  reason: string;
  /** `iteration 3 · case saas-cto`, first few places it was said. */
  where: string[];
  count: number;
}

export interface OverallRemark {
  text: string;
  where: string[];
  count: number;
}

export interface EvalFeedback {
  suggestions: FeedbackItem[];
  overall: OverallRemark[];
}

const MAX_PLACES = 4;

export function gatherEvalFeedback(iterations: readonly IterationFolder[]): EvalFeedback {
  const suggestions = new Map<string, FeedbackItem>();
  const overall = new Map<string, OverallRemark>();
  for (const iteration of iterations) {
    for (const candidate of iteration.candidates) {
      for (const entry of candidate.grading) {
        const grading = parseGrading(entry.value);
        if (!grading) continue;
        const place = `iteration ${iteration.iteration} · case ${entry.caseId}`;
        for (const s of grading.eval_feedback.suggestions) {
          const key = `${s.assertion.trim()}\u0000${s.reason.trim()}`;
          const item = suggestions.get(key) ?? {
            assertion: s.assertion.trim(),
            reason: s.reason.trim(),
            where: [],
            count: 0,
          };
          note(item, place);
          suggestions.set(key, item);
        }
        const text = grading.eval_feedback.overall.trim();
        if (text !== '') {
          const remark = overall.get(text) ?? { text, where: [], count: 0 };
          note(remark, place);
          overall.set(text, remark);
        }
      }
    }
  }
  const byCount = <T extends { count: number }>(a: T, b: T) => b.count - a.count;
  return {
    suggestions: [...suggestions.values()].sort(byCount),
    overall: [...overall.values()].sort(byCount),
  };
}

function note(item: { where: string[]; count: number }, place: string): void {
  item.count += 1;
  if (item.where.length < MAX_PLACES && !item.where.includes(place)) item.where.push(place);
}
