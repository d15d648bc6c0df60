/**
 * An iteration's decision as a terminal row tells it (show, watch): the interval of the train
 * mean difference and the per-case tally of a paired decision (docs/design/paired-acceptance.md),
 * what the screen found for a screened-out proposal, and the row's text (the hypothesis, or the
 * error).
 */
import type { PairedDecisionRecord, Phase, ScreenRecord } from '../run/events.js';
import type { IterationRecord } from '../run/run-state.js';
import { signed } from './format-figures.js';

/**
 * `[+0.011,+0.073]`; for a screened-out row the one figure it has, `minibatch -0.200`; `-`
 * without either (margin acceptance, fewer than 2 cases).
 */
export function formatInterval(r: Pick<IterationRecord, 'paired' | 'screen' | 'status'>): string {
  if (r.status === 'screened_out' && r.screen) return `minibatch ${signed(r.screen.mean)}`;
  const train = r.paired?.train;
  if (!train || train.lo === null || train.hi === null) return '-';
  return `[${signed(train.lo)},${signed(train.hi)}]`;
}

/** `3↑ 0↓ 1=`: train cases the candidate scored higher, lower, the same as what it was compared with. */
export function formatTally(paired: PairedDecisionRecord | null): string {
  return paired ? `${paired.wins}↑ ${paired.losses}↓ ${paired.ties}=` : '-';
}

/** Where the train interval lies against zero; null without one. */
export function intervalSide(paired: PairedDecisionRecord | null): 'above' | 'below' | 'across' | null {
  const train = paired?.train;
  if (!train || train.lo === null || train.hi === null) return null;
  return train.lo > 0 ? 'above' : train.hi < 0 ? 'below' : 'across';
}

/** `minibatch -0.200 on 2 cases`. */
export function describeScreen(screen: ScreenRecord): string {
  const n = screen.cases.length;
  return `minibatch ${signed(screen.mean)} on ${n} case${n === 1 ? '' : 's'}`;
}

/** The text a row ends with (one line is made of it by the caller). */
export function describeRow(r: IterationRecord): string {
  if (r.status === 'error') return `${r.errorKind ?? 'error'}: ${r.message ?? r.hypothesis ?? ''}`;
  const text = r.hypothesis ?? (r.status === 'baseline' ? 'the starting prompt' : '');
  if (r.status === 'screened_out' && r.screen) return `${r.screen.callsSaved} calls saved: ${text}`;
  return text;
}

/** A phase as the views name it: a retest's own phases say they belong to the retest. */
export function describePhase(phase: Phase | null, retesting: boolean): string {
  if (phase === 'retesting') return 'retesting (fresh samples for candidate and incumbent)';
  if (phase === 'merging') return 'merging two pool members';
  if (phase === null) return retesting ? 'retest' : 'starting';
  return retesting ? `retest ${phase}` : phase;
}
