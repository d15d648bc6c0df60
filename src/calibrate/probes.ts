/**
 * The bias probes of `calibrate` (docs/design/judge-reliability.md): three questions asked of the
 * experiment's own judge, in its usual sandbox, about outputs whose quality does not change between
 * judgings.
 *
 * - order: the outputs judged in one order and then in the reverse (two seeds, two shuffles) —
 *   does an output's score depend on where it stands? Only for a judge that sees several
 *   outputs at once; the built-in judge scores one output per call, so it is not applicable.
 * - length: each output judged as it is and padded with neutral filler (pad-output.ts) — does
 *   the judge reward length itself?
 * - repeat: the outputs judged k times — how often are the scores identical?
 *
 * Every judging is fresh (probe-judging.ts), so no judging is a cache hit of another. A probe
 * whose judging fails reports that instead of an estimate; the others still run.
 */
import type { Rubric } from '../experiment/types.js';
import type { Judge, JudgeOutput } from '../judge/judge.js';
import { pairedInterval } from '../loop/paired.js';
import { wilsonInterval } from '../stats/wilson-interval.js';
import { padOutput } from './pad-output.js';
import { arrangeForLayout, type PlacedPair, positionEffect } from './position-effect.js';
import { createProbeJudge, type Judging, outputKey, type ProbeJudge } from './probe-judging.js';
import type { ProbeResult } from './probe-result.js';
import { lengthVerdict, orderVerdict, repeatVerdict } from './probe-verdicts.js';

export type { ProbeResult } from './probe-result.js';

export interface ProbeInput {
  judge: Judge;
  /**
   * False for the built-in model judge (it scores one output per call); true for a `command`
   * program, which reads the whole `outputs/` folder (isProgramEntry of the judge entry).
   */
  judgeSeesAllOutputs: boolean;
  /** Each (caseId, sample) once: that is how an output is found again in the next judging. */
  outputs: readonly JudgeOutput[];
  rubric: Rubric;
  /** k for repeat consistency (default 3). */
  repeats: number;
  seed: number;
  signal: AbortSignal;
}

export const DEFAULT_REPEATS = 3;

/** order, length, repeat — in that order, one result each. */
export async function runBiasProbes(input: ProbeInput): Promise<ProbeResult[]> {
  const judge = createProbeJudge(input);
  return [await orderProbe(input, judge), await lengthProbe(input, judge), await repeatProbe(input, judge)];
}

/** One judging of a probe: its outputs and seed, which may depend on the judgings before it. */
type Planned = (before: readonly Judging[]) => { outputs: readonly JudgeOutput[]; seed: number };

/** Runs a probe's judgings in turn; the first failure ends the probe with a result that says so. */
async function judgeAll(
  probe: ProbeResult['probe'],
  judge: ProbeJudge,
  plans: readonly Planned[],
): Promise<{ ok: true; judgings: Judging[] } | { ok: false; result: ProbeResult }> {
  const judgings: Judging[] = [];
  for (const plan of plans) {
    const { outputs, seed } = plan(judgings);
    const outcome = await judge.judge(outputs, seed);
    if (!outcome.ok)
      return {
        ok: false,
        result: undecided(
          probe,
          `could not tell: the judge failed (${outcome.message})`,
          judgings.length + 1,
        ),
      };
    judgings.push(outcome.judging);
  }
  return { ok: true, judgings };
}

function undecided(probe: ProbeResult['probe'], verdict: string, calls: number): ProbeResult {
  return { probe, applicable: true, estimate: null, interval: null, biased: null, verdict, calls };
}

/** A judging's score of an output; every output is scored (the runner validated the file). */
function scoreOf(judging: Judging, output: JudgeOutput): number {
  return judging.scores.get(outputKey(output)) as number;
}

async function orderProbe(input: ProbeInput, judge: ProbeJudge): Promise<ProbeResult> {
  if (!input.judgeSeesAllOutputs)
    return {
      probe: 'order',
      applicable: false,
      estimate: null,
      interval: null,
      biased: null,
      verdict:
        'not applicable: this judge scores one output per call, so the order it sees them in cannot matter',
      calls: 0,
    };
  const { outputs, seed } = input;
  if (outputs.length < 2) return undecided('order', 'not run: it needs at least two outputs', 0);
  const placeIn = (judging: Judging, output: JudgeOutput) =>
    judging.positions.get(outputKey(output)) as number;
  const judged = await judgeAll('order', judge, [
    () => ({ outputs, seed }),
    // The second order is the first one reversed, so every output moves as far as it can.
    ([first]) => {
      const seen = [...outputs].sort((a, b) => placeIn(first as Judging, a) - placeIn(first as Judging, b));
      return { outputs: arrangeForLayout(seen.reverse(), seed + 1), seed: seed + 1 };
    },
  ]);
  if (!judged.ok) return judged.result;
  const [first, second] = judged.judgings as [Judging, Judging];
  const pairs: PlacedPair[] = outputs.map((output) => ({
    first: { score: scoreOf(first, output), place: placeIn(first, output) },
    second: { score: scoreOf(second, output), place: placeIn(second, output) },
  }));
  const effect = positionEffect(pairs);
  if (effect === null)
    return undecided('order', 'could not tell: no output changed its place between the two orders', 2);
  return {
    probe: 'order',
    applicable: true,
    ...effect,
    ...orderVerdict(effect, outputs.length),
    calls: 2,
  };
}

async function lengthProbe(input: ProbeInput, judge: ProbeJudge): Promise<ProbeResult> {
  const { outputs, seed } = input;
  if (outputs.length < 2) return undecided('length', 'not run: it needs at least two outputs', 0);
  const padded = outputs.map((output) => ({ ...output, text: padOutput(output.text) }));
  // The same seed: both judgings see the outputs in the same order, so only the padding differs.
  const judged = await judgeAll('length', judge, [
    () => ({ outputs, seed }),
    () => ({ outputs: padded, seed }),
  ]);
  if (!judged.ok) return judged.result;
  const [plain, long] = judged.judgings as [Judging, Judging];
  const changes = outputs.map((output) => scoreOf(long, output) - scoreOf(plain, output));
  const paired = pairedInterval(changes, 0.975);
  const effect = {
    estimate: paired.mean,
    interval: [paired.lo as number, paired.hi as number] as [number, number],
  };
  return {
    probe: 'length',
    applicable: true,
    ...effect,
    ...lengthVerdict(effect, outputs.length),
    calls: 2,
  };
}

async function repeatProbe(input: ProbeInput, judge: ProbeJudge): Promise<ProbeResult> {
  const { outputs, seed, repeats } = input;
  if (repeats < 2) return undecided('repeat', 'not run: it needs at least two repeats', 0);
  if (outputs.length < 1) return undecided('repeat', 'not run: it needs at least one output', 0);
  // The same seed every time: only the judge's own sampling can differ.
  const judged = await judgeAll(
    'repeat',
    judge,
    Array.from({ length: repeats }, () => () => ({ outputs, seed })),
  );
  if (!judged.ok) return judged.result;
  const identical = outputs.filter((output) => {
    const [first, ...rest] = judged.judgings.map((j) => j.criteria.get(outputKey(output)) ?? {});
    return rest.every((scores) => sameScores(first ?? {}, scores, input.rubric));
  }).length;
  const interval = wilsonInterval(identical, outputs.length);
  return {
    probe: 'repeat',
    applicable: true,
    estimate: identical / outputs.length,
    interval,
    ...repeatVerdict(identical, outputs.length, repeats, interval),
    calls: repeats,
  };
}

function sameScores(a: Record<string, number>, b: Record<string, number>, rubric: Rubric): boolean {
  return rubric.criteria.every((criterion) => a[criterion.key] === b[criterion.key]);
}
