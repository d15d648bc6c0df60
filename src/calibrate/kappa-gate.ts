/**
 * `calibrate --fail-under-kappa K` (docs/design/judge-reliability.md), pure: the calibration passes
 * when every labelled criterion's quadratic-weighted kappa is at least K. A labelled criterion
 * whose kappa is undefined (a single score everywhere) cannot show it meets K, so it fails too.
 */
import type { CalibrationFile } from './calibration-file.js';

export type KappaGate = { passed: true } | { passed: false; reason: string };

export function judgeKappaGate(calibration: CalibrationFile, threshold: number): KappaGate {
  const labelled = calibration.criteria.filter((c) => c.labels > 0);
  if (labelled.length === 0) {
    return { passed: false, reason: 'no criterion scores are labelled, so there is no kappa to compare' };
  }
  const undefinedKappa = labelled.filter((c) => c.kappa.estimate === null).map((c) => c.criterion);
  if (undefinedKappa.length > 0) {
    return {
      passed: false,
      reason: `kappa is undefined for ${undefinedKappa.join(', ')} (a single score everywhere), so it cannot be shown to reach ${threshold}`,
    };
  }
  const lowest = calibration.lowestKappa;
  if (lowest !== null && lowest.kappa < threshold) {
    return {
      passed: false,
      reason: `the lowest kappa, ${lowest.kappa.toFixed(3)} (${lowest.criterion}), is below ${threshold}`,
    };
  }
  return { passed: true };
}
