/**
 * The incumbent: the prompt every candidate is compared with, its scores, and its last
 * evaluation (for the mutator's feedback). Read back from the run record, so a resumed run
 * continues from exactly what was decided.
 */
import { readFile } from 'node:fs/promises';
import type * as z from 'zod';
import { candidatePaths } from '../run/paths.js';
import type { RunState } from '../run/run-state.js';
import { CandidateResult, type CandidateScores } from '../evaluate/candidate-result.js';
import type { Evaluation, SplitScore } from '../scoring/index.js';

export interface IncumbentView {
  iteration: number;
  candidate: number;
  prompt: string;
  train: number;
  holdout: number | null;
  eligible: boolean;
  evaluation: Evaluation;
  trainScore: SplitScore;
  /** Per split, with per-case totals: what paired acceptance compares against. */
  scores: CandidateScores;
}

/** Only what the incumbent needs: evaluation.json written by any version holds these. */
const StoredResult = CandidateResult.pick({ evaluation: true, scores: true });

export async function loadCandidateEvaluation(
  runDir: string,
  iteration: number,
  candidate: number,
): Promise<z.infer<typeof StoredResult>> {
  const paths = candidatePaths(runDir, iteration, candidate);
  return StoredResult.parse(JSON.parse(await readFile(paths.evaluation, 'utf8')));
}

export async function loadIncumbent(runDir: string, state: RunState): Promise<IncumbentView> {
  const incumbent = state.incumbent;
  if (!incumbent || incumbent.train === null) throw new Error('the run has no scored incumbent yet');
  const record = state.iterations.find((it) => it.iteration === incumbent.iteration);
  const candidate = record?.candidate ?? 0;
  const paths = candidatePaths(runDir, incumbent.iteration, candidate);
  const prompt = await readFile(paths.prompt, 'utf8');
  const stored = await loadCandidateEvaluation(runDir, incumbent.iteration, candidate);
  return {
    iteration: incumbent.iteration,
    candidate,
    prompt,
    train: incumbent.train,
    holdout: incumbent.holdout,
    eligible: incumbent.eligible,
    evaluation: stored.evaluation,
    trainScore: stored.scores.train,
    scores: stored.scores,
  };
}
