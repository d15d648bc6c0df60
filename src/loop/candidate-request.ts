/**
 * Candidate k of an iteration as the loop asks the evaluation entry (evaluate/evaluate.ts) for
 * it: by default the loop's cases (its experiment holds no test case) at `search.samples`, into
 * the candidate's folder, journaled under its place; and the run's parts with the `generated`
 * kill point. The baseline, the iterations, screening, retests and confirmation re-runs ask
 * this way.
 */
import { candidateSeed } from '../evaluate/evaluate.js';
import type { EvaluateDeps, EvaluateRequest, ScreenStage } from '../evaluate/evaluate-types.js';
import type { Case } from '../experiment/types.js';
import { type CandidatePaths, candidatePaths } from '../run/paths.js';
import { evaluationDeps, type LoopDeps } from './loop-deps.js';

export interface CandidateSlot {
  iteration: number;
  candidate: number;
  prompt: string;
  sampleBase: number;
  repeat?: number;
  /** The cases to evaluate (default: the experiment's). */
  cases?: readonly Case[];
  /** Samples per case (default: `search.samples`). */
  samples?: number;
  /** Where the record goes (default: the candidate's folder). */
  paths?: CandidatePaths;
  /** Journal phases and `candidate_evaluated` (default); off for the incumbent's retest. */
  journal?: boolean;
  /** Screening: `cases` is the minibatch. */
  screen?: ScreenStage;
}

export function candidateRequest(deps: LoopDeps, slot: CandidateSlot): EvaluateRequest {
  const { experiment } = deps;
  const { iteration, candidate } = slot;
  return {
    experiment,
    prompt: slot.prompt,
    cases: slot.cases ?? experiment.cases,
    samples: slot.samples ?? experiment.config.search.samples,
    sampleBase: slot.sampleBase,
    seed: candidateSeed(experiment, iteration, candidate),
    paths: slot.paths ?? candidatePaths(deps.runDir, iteration, candidate),
    ...(slot.screen === undefined ? {} : { screen: slot.screen }),
    ...(slot.journal === false
      ? {}
      : {
          journal: {
            append: (event) => deps.recorder.emit(event),
            iteration,
            candidate,
            ...(slot.repeat === undefined ? {} : { repeat: slot.repeat }),
          },
        }),
  };
}

/** The run's parts for a candidate's evaluation, reaching the `generated` kill point after each output. */
export function candidateDeps(deps: LoopDeps, iteration: number): EvaluateDeps {
  return {
    ...evaluationDeps(deps, iteration),
    onPhase: (phase, progress) => {
      if (phase === 'generating' && progress && progress.done > 0) deps.checkpoint?.('generated');
    },
  };
}
