/**
 * Drift anchors in the loop (docs/design/judge-reliability.md, `judging.anchors`,
 * `judging.anchor_every`). A judge can change under a long run — a model version rolled out
 * overnight, a provider-side change — and the loop would then compare scores that no longer mean
 * the same. So a few of the baseline's judged train outputs are judged again with the cache
 * bypassed (JudgeRequest.fresh): once right after the baseline, which measures the judge's own
 * noise, and then every `anchor_every` iterations, which measures drift against the baseline's
 * scores (judge-drift.ts holds the arithmetic).
 *
 * Each reading is journaled with the iteration it belongs to, in the append of that
 * iteration's `iteration_finished` (`judge_noise`, `judge_drift`, and their warnings): a
 * journaled check is never run again, and one cut short is redone with its iteration. Under
 * paired acceptance, a noise that exceeds `search.min_effect` in a decision's mean difference
 * is warned about once, at the baseline. A run with no `judge_noise` for its baseline (anchors
 * off, an anchor reading failed, or a run started before anchors existed) checks no drift.
 */
import { anchorSettings } from '../experiment/anchors.js';
import { outputText } from '../evaluate/output-text.js';
import { caseInputsFor } from '../protocol/case-inputs.js';
import { ProviderError } from '../providers/types.js';
import type { AnchorReading, RunEventBody } from '../run/events.js';
import type { Evaluation, SplitScore } from '../scoring/index.js';
import { normaliseCriteria } from '../scoring/judge-signal.js';
import { loadCandidateEvaluation } from './incumbent.js';
import {
  type Anchor,
  assessDrift,
  decisionNoise,
  judgeNoise,
  judgeShare,
  pickAnchors,
} from './judge-drift.js';
import type { LoopRun } from './loop-deps.js';
import { acceptanceFor } from './loop-state.js';
import { signed } from './decide.js';

/**
 * Anchor readings take sample indexes from here on (plus 1000 per iteration), far from any an
 * evaluation uses, so no reading is ever the reply an evaluation or another reading got.
 */
const ANCHOR_SAMPLE_BASE = 1_000_000;
const SAMPLES_PER_READING = 1_000;

/**
 * At the baseline: its anchors read again at once. Returns the events to journal with the
 * baseline's end — `judge_noise`, and a warning when the judge is too noisy for `min_effect`.
 */
/** A run started before drift anchors (record version < 4) goes on without them, as it began. */
function anchorsOf(deps: LoopRun): ReturnType<typeof anchorSettings> {
  return deps.recorder.version < 4 ? null : anchorSettings(deps.experiment);
}

export async function measureJudgeNoise(
  deps: LoopRun,
  baseline: { iteration: number; evaluation: Evaluation; train: SplitScore },
): Promise<RunEventBody[]> {
  const settings = anchorsOf(deps);
  if (settings === null || deps.judge === undefined) return [];
  const { iteration } = baseline;
  const anchors = pickAnchors(
    baseline.evaluation,
    settings.anchors,
    deps.experiment.config.search.seed,
    outputText,
  );
  if (anchors.length === 0) return [];
  const read = await readAnchors(deps, anchors, baseline.evaluation, iteration);
  if (!read.ok)
    return [
      warning(iteration, `drift anchors are off for this run: reading them again failed: ${read.message}`),
    ];
  const noise = judgeNoise(read.readings);
  const { search, scoring } = deps.experiment.config;
  const paired = acceptanceFor(deps) === 'paired';
  const trainCases = deps.experiment.cases.filter((c) => c.split === 'train').length;
  const inDecision = paired
    ? decisionNoise(noise, judgeShare(scoring.weights, baseline.train), trainCases, search.samples)
    : null;
  const events: RunEventBody[] = [
    { type: 'judge_noise', iteration, anchors: read.readings, noise, decisionNoise: inDecision },
  ];
  if (inDecision !== null && inDecision > search.min_effect) {
    events.push(
      warning(
        iteration,
        `the judge cannot resolve the gains it is asked for: its own noise, measured by judging ${anchors.length} baseline outputs again, moves a decision's mean difference by about ±${inDecision.toFixed(3)}, more than search.min_effect (${search.min_effect}); raise min_effect, add train cases or samples, or steady the judge (temperature 0, more judge samples)`,
      ),
    );
  }
  return events;
}

/**
 * In iteration `iteration`: when a drift check is due, the anchors read again, compared with
 * the baseline's scores of them. Returns the events to journal with the iteration's end —
 * `judge_drift`, and a warning when the change is beyond the baseline's judge noise.
 */
export async function checkJudgeDrift(deps: LoopRun, iteration: number): Promise<RunEventBody[]> {
  const settings = anchorsOf(deps);
  const state = deps.recorder.state();
  const noise = state.judgeAnchors.noise;
  const baselineIteration = state.baseline?.iteration;
  if (settings === null || deps.judge === undefined || baselineIteration === undefined) return [];
  if (noise === null || noise.iteration !== baselineIteration) return [];
  // Whether one is due at all is the iteration's plan (src/experiment/iteration-plan.ts `driftCheck`).
  if (iteration <= baselineIteration) return [];
  const { evaluation } = await loadCandidateEvaluation(deps.runDir, baselineIteration, 0);
  const anchors = pickAnchors(evaluation, settings.anchors, deps.experiment.config.search.seed, outputText);
  if (anchors.length === 0) return [];
  const read = await readAnchors(deps, anchors, evaluation, iteration);
  if (!read.ok) return [warning(iteration, `the drift check of the judge failed: ${read.message}`)];
  const drift = assessDrift(read.readings, noise.noise);
  const events: RunEventBody[] = [
    { type: 'judge_drift', iteration, baseline: baselineIteration, anchors: read.readings, ...drift },
  ];
  if (drift.beyondNoise) {
    const interval =
      drift.lo === null || drift.hi === null ? '' : ` (95% ${signed(drift.lo)}…${signed(drift.hi)})`;
    events.push(
      warning(
        iteration,
        `judge drift: re-judged with the cache bypassed, ${anchors.length} baseline outputs score ${signed(drift.mean)}${interval} on the judge's 0–1 scale against the baseline's judging, beyond its noise (±${drift.band.toFixed(3)}); scores before and after this point may not be comparable — has the judge model or its provider changed?`,
      ),
    );
  }
  return events;
}

type AnchorRead = { ok: true; readings: AnchorReading[] } | { ok: false; message: string };

/** One fresh judging of the anchors; a failure that must stop the run (auth, credit, Ctrl-C) is thrown. */
async function readAnchors(
  deps: LoopRun,
  anchors: readonly Anchor[],
  evaluation: Evaluation,
  iteration: number,
): Promise<AnchorRead> {
  const { experiment } = deps;
  const judge = deps.judge;
  const rubric = experiment.rubric;
  const criteria = evaluation.judge?.criteria;
  if (judge === undefined || rubric === undefined || criteria === undefined)
    return { ok: false, message: 'the experiment has no judge' };
  const inputs = caseInputsFor(experiment.config.judging, experiment.cases);
  // Its calls go on an account of their own like an evaluation's, settled (forgotten) at once:
  // the run's spend takes them from the ledger with the iteration's.
  const account = `anchors-${iteration}`;
  const session = judge.open({ signal: deps.signal, account });
  let result: Awaited<ReturnType<typeof session.judge>>;
  try {
    result = await session.judge({
      outputs: anchors.map((a) => {
        const input = inputs?.get(a.caseId);
        return {
          caseId: a.caseId,
          sample: a.sample,
          text: a.text,
          ...(input === undefined ? {} : { input }),
        };
      }),
      rubric,
      seed: experiment.config.search.seed + iteration * 1000 + 999,
      fresh: { sampleBase: ANCHOR_SAMPLE_BASE + iteration * SAMPLES_PER_READING },
    });
  } finally {
    await session.close();
    deps.pool.ledger.settle(account);
  }
  if (!result.ok) {
    const error = result.providerError;
    if (error instanceof ProviderError && (error.stopsRun || error.kind === 'aborted')) throw error;
    deps.signal.throwIfAborted();
    return { ok: false, message: result.message };
  }
  const scored = new Map(result.perOutput.map((o) => [`${o.caseId}\u0000${o.sample}`, o.criteria]));
  const readings: AnchorReading[] = [];
  for (const anchor of anchors) {
    const now = scored.get(`${anchor.caseId}\u0000${anchor.sample}`);
    if (now === undefined)
      return { ok: false, message: `no score for anchor ${anchor.caseId}.${anchor.sample}` };
    readings.push({
      caseId: anchor.caseId,
      sample: anchor.sample,
      baseline: anchor.baseline,
      now: normaliseCriteria(now, criteria),
    });
  }
  return { ok: true, readings };
}

function warning(iteration: number, message: string): RunEventBody {
  return { type: 'warning', iteration, message };
}
