/**
 * Seeded kill points: a (point, occurrence) for AUTORESEARCH_TEST_KILL_AT, picked so the point
 * is really reached by the process about to start. How often each point is reached follows
 * from the uninterrupted reference run (its decisions) and where the run under test stands.
 */
import type { RunState } from '../../../src/run/run-state.js';

/** The loop's named points (see src/loop/kill-point.ts), grouped by the phase they cut. */
export const PHASE_POINTS = {
  baseline: ['baseline'],
  mutating: ['iteration_started', 'mutating', 'proposed'],
  generating: ['generating', 'generated', 'checking'],
  judging: ['judging'],
  grading: ['grading', 'scoring'],
  deciding: ['evaluated', 'decided'],
  'writing records': ['started', 'finished', 'recorded'],
  committing: ['committing', 'committed'],
  final: ['final', 'final_done'],
} as const;
export type PhaseGroup = keyof typeof PHASE_POINTS;

const RUN_ORDER = [
  'started',
  'baseline',
  'iteration_started',
  'mutating',
  'proposed',
  'generating',
  'generated',
  'checking',
  'judging',
  'grading',
  'scoring',
  'evaluated',
  'finished',
  'recorded',
  'decided',
  'committing',
  'committed',
  'final',
  'final_done',
] as const;

export interface KillPoint {
  group: PhaseGroup;
  point: string;
  occurrence: number;
}

export function formatKillPoint(kill: KillPoint): string {
  return `${kill.point}:${kill.occurrence}`;
}

export interface ReferenceShape {
  /** Status per iteration number after the baseline (index 0 = iteration 1). */
  statuses: string[];
  cases: number;
}

/**
 * How many times a process started now reaches each point, from where `state` (null: a fresh
 * run) stands — and the point it was last killed at: the baseline if not done, every
 * iteration from the next one, the keeps among them (plus a keep still to be committed), and
 * the final check.
 */
export function countPoints(
  reference: ReferenceShape,
  state: RunState | null,
  lastKill?: KillPoint,
): Record<string, number> {
  const baselineLeft = state?.baseline ? 0 : 1;
  const next = baselineLeft === 1 ? 1 : Math.max(1, state?.nextIteration ?? 1);
  const left = reference.statuses.filter((_s, index) => index + 1 >= next);
  const evaluated = left.filter((s) => s !== 'duplicate').length;
  const incumbent = state?.incumbent;
  // A keep left without its commit event is committed on resume — unless the commit was made
  // (killed at `committed`): then resume only journals it.
  const uncommitted =
    incumbent &&
    incumbent.commit === null &&
    state?.baseline?.iteration !== incumbent.iteration &&
    lastKill?.point !== 'committed'
      ? 1
      : 0;
  const keeps = left.filter((s) => s === 'keep').length + uncommitted;
  const evaluations = baselineLeft + evaluated;
  return {
    started: state === null ? 1 : 0,
    baseline: baselineLeft,
    iteration_started: left.length,
    mutating: left.length,
    proposed: left.length,
    generating: evaluations,
    generated: evaluations * reference.cases,
    checking: evaluations,
    judging: evaluations,
    grading: evaluations,
    scoring: evaluations,
    evaluated: evaluated,
    decided: evaluated,
    finished: baselineLeft + left.length,
    recorded: baselineLeft + left.length + keeps,
    committing: keeps,
    committed: keeps,
    final: 1,
    final_done: 1,
  };
}

/** Every point in the order a run reaches them. */
export const POINTS: readonly { group: PhaseGroup; point: string }[] = RUN_ORDER.map((point) => ({
  group: (Object.keys(PHASE_POINTS) as PhaseGroup[]).find((group) =>
    (PHASE_POINTS[group] as readonly string[]).includes(point),
  ) as PhaseGroup,
  point,
}));

/**
 * The point at index `preferred` of POINTS (the next one along when it is not reached any
 * more), and an occurrence early enough that `killsLeft` more kills still find work after
 * it: about 1/(killsLeft + 1) of the way through what is left.
 */
export function pickKillPoint(
  random: () => number,
  counts: Record<string, number>,
  preferred: number,
  killsLeft: number,
): KillPoint | undefined {
  const reached = (index: number) => (counts[POINTS[index]?.point ?? ''] ?? 0) > 0;
  let index = preferred % POINTS.length;
  for (let step = 0; step < POINTS.length && !reached(index); step++) index = (index + 1) % POINTS.length;
  if (!reached(index)) return undefined;
  const { group, point } = POINTS[index] as { group: PhaseGroup; point: string };
  const count = counts[point] ?? 1;
  const span = Math.max(1, Math.round((2 * count) / (killsLeft + 2)));
  return { group, point, occurrence: 1 + Math.floor(random() * span) };
}
