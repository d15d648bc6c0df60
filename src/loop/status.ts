/**
 * Iteration statuses (docs/design/scoring-and-decisions.md) and the streaks the loop reads from
 * them. Strategy, patience and the error stop each count a trailing run of statuses; which statuses
 * count, and which pass through without counting or resetting, is fixed here so the three cannot
 * drift apart.
 */
// The journal's enum is the one definition; the loop reads streaks off it.
import { IterationStatus } from '../run/events.js';

export { IterationStatus };

/**
 * A candidate was evaluated and not kept: these count towards `patience` and `bold_after`
 * (docs/design/paired-acceptance.md: `inconclusive` and `screened_out` count like a discard).
 */
export function isNonImproving(status: IterationStatus): boolean {
  return (
    status === 'discard' ||
    status === 'gate_fail' ||
    status === 'holdout_fail' ||
    status === 'inconclusive' ||
    status === 'screened_out'
  );
}

// Nothing was learned about the prompt: neither a success nor a failure of the search.
function isNeutral(status: IterationStatus): boolean {
  return status === 'duplicate' || status === 'error' || status === 'interrupted';
}

/**
 * Non-improving iterations in a row at the end of `statuses` (oldest first). `duplicate`,
 * `error` and `interrupted` are skipped: they neither count nor break the streak.
 */
export function countNonImprovingStreak(statuses: readonly IterationStatus[]): number {
  let streak = 0;
  for (let i = statuses.length - 1; i >= 0; i--) {
    const status = statuses[i] as IterationStatus;
    if (isNeutral(status)) continue;
    if (!isNonImproving(status)) break;
    streak++;
  }
  return streak;
}

/**
 * `error` iterations in a row at the end of `statuses`. An `interrupted` iteration is redone
 * under the same number on resume, so it is skipped; any other status breaks the streak.
 */
export function countErrorStreak(statuses: readonly IterationStatus[]): number {
  let streak = 0;
  for (let i = statuses.length - 1; i >= 0; i--) {
    const status = statuses[i] as IterationStatus;
    if (status === 'interrupted') continue;
    if (status !== 'error') break;
    streak++;
  }
  return streak;
}
