/**
 * Generations that still failed after their retries make an evaluation's score incomplete:
 * the failed outputs count as nothing, so an outage would read as a bad prompt (or, with
 * every generation failed, as a score of 0 that CI lets through). `eval` exits 1 on them.
 */
import type { EvalReport } from './eval-report.js';

export interface GenerationFailures {
  failed: number;
  total: number;
  /** Distinct error messages, the most frequent first. */
  reasons: { error: string; count: number }[];
}

export function countGenerationFailures(report: Pick<EvalReport, 'cases' | 'samples'>): GenerationFailures {
  const counts = new Map<string, number>();
  let failed = 0;
  for (const item of report.cases) {
    for (const { error } of item.generationErrors) {
      failed += 1;
      counts.set(error, (counts.get(error) ?? 0) + 1);
    }
  }
  const reasons = [...counts].map(([error, count]) => ({ error, count })).sort((a, b) => b.count - a.count);
  return { failed, total: report.cases.length * report.samples, reasons };
}

/** `2 of 8 generations failed after their retries (ECONNREFUSED …; and 1 other reason)` */
export function describeGenerationFailures(failures: GenerationFailures): string {
  const [first, ...others] = failures.reasons;
  const why =
    first === undefined
      ? ''
      : ` (${first.error}${others.length === 0 ? '' : `; and ${others.length} other reason${others.length === 1 ? '' : 's'}`})`;
  return `${failures.failed} of ${failures.total} generation${failures.total === 1 ? '' : 's'} failed after their retries${why}`;
}
