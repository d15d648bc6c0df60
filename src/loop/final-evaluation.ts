/**
 * When the run ends, the baseline and the best prompt are evaluated once more with fresh
 * samples (docs/design/scoring-and-decisions.md): the decisions during the run picked the best on
 * noisy draws, so these figures are the honest before/after that heads the summary and the report.
 * The sealed test cases (docs/design/paired-acceptance.md) are scored here and nowhere else in a
 * run: untouched by any decision, their figures lead wherever they exist.
 */
import { join } from 'node:path';
import { standingOf } from '../evaluate/candidate-result.js';
import { evaluate } from '../evaluate/evaluate.js';
import { finalEvaluationCount } from '../experiment/iteration-plan.js';
import { type CandidatePaths, candidatePathsAt } from '../run/paths.js';
import { evaluationDeps, type LoopRun } from './loop-deps.js';

/** Far past any sample index the run used, so the final draws are fresh. */
export const FINAL_SAMPLE_BASE = 100_000;

export function finalPaths(runDir: string, which: 'baseline' | 'best'): CandidatePaths {
  return candidatePathsAt(join(runDir, 'final', which));
}

export async function runFinalEvaluation(
  deps: LoopRun,
  prompts: { baseline: string; best: string; bestIteration: number },
): Promise<void> {
  const { recorder, experiment } = deps;
  const iteration = prompts.bestIteration;
  await recorder.emit({ type: 'phase', iteration, phase: 'final' });
  const evaluateFinal = async (which: 'baseline' | 'best', prompt: string) => {
    const { outcome } = await evaluate(
      {
        experiment,
        prompt,
        cases: [...experiment.cases, ...deps.testCases],
        samples: experiment.config.search.samples,
        sampleBase: FINAL_SAMPLE_BASE,
        seed: experiment.config.search.seed + FINAL_SAMPLE_BASE,
        paths: finalPaths(deps.runDir, which),
      },
      evaluationDeps(deps, iteration),
    );
    const tested = deps.testCases.length > 0;
    if (!outcome.ok) return { train: null, holdout: null, ...(tested ? { test: null } : {}) };
    return {
      train: outcome.scores.train.total,
      holdout: standingOf(outcome.scores).holdout,
      ...(tested ? { test: outcome.scores.test?.total ?? null } : {}),
    };
  };
  const same = finalEvaluationCount(prompts.baseline, prompts.best) === 1;
  const [baseline, best] = await Promise.all([
    evaluateFinal('baseline', prompts.baseline),
    same ? undefined : evaluateFinal('best', prompts.best),
  ]);
  // Journaled like any iteration's spend, so the run's total and a resumed usd budget include it.
  const spend = deps.spend.take({ iteration, phase: 'final' });
  await recorder.emit(...spend, {
    type: 'final_evaluation',
    baseline,
    best: { iteration, ...(best ?? baseline) },
  });
}
