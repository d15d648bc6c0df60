/**
 * `eval --fail-under S [--split train|holdout|test|all]`, pure: the chosen split's total must
 * be at least S, and no gate check may have failed on any evaluated case (a gate is a hard
 * constraint whatever the score). A failed evaluation or a split without a score never passes.
 */
import { parseNumberFlag } from '../experiment/overrides.js';
import type { EvalReport, FailUnderVerdict, ScopeName } from './eval-report.js';

export function parseFailUnder(value: string): number {
  return parseNumberFlag('fail-under', value, { min: 0, max: 1 });
}

export function judgeFailUnder(report: EvalReport, threshold: number, split: ScopeName): FailUnderVerdict {
  const verdict = (score: number | null, reasons: string[]): FailUnderVerdict => ({
    split,
    threshold,
    score,
    passed: reasons.length === 0,
    reason: reasons.length === 0 ? null : reasons.join('; '),
  });
  if (report.status === 'error' || report.splits === null) {
    const why = report.error ? `${report.error.kind}: ${report.error.message}` : 'no scores';
    return verdict(null, [`the evaluation failed (${why}), so there is no score to compare`]);
  }
  const scope = report.splits[split];
  const reasons: string[] = [];
  if (scope === undefined) {
    reasons.push(`the ${split} split was not evaluated`);
  } else if (scope.total === null) {
    reasons.push(
      `the ${split} split has no score (${scope.cases === 0 ? 'it has no cases' : 'no signal was measured'})`,
    );
  } else if (scope.total < threshold) {
    reasons.push(
      `the ${split} score ${scope.total.toFixed(4)} is below ${threshold.toFixed(4)} by ${(threshold - scope.total).toFixed(4)}`,
    );
  }
  const gates = [...report.splits.all.gateFailures, ...(report.splits.test?.gateFailures ?? [])];
  if (gates.length > 0) {
    reasons.push(
      `${gates.length} gate failure${gates.length === 1 ? '' : 's'} (a failed gate fails --fail-under whatever the score)`,
    );
  }
  return verdict(scope?.total ?? null, reasons);
}
