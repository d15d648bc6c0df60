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

/** A recorded candidate: where it is (iteration, candidate), its prompt and its stored result. */
export interface StoredCandidate extends z.infer<typeof StoredResult> {
  iteration: number;
  candidate: number;
  prompt: string;
}

/** The one loader of a recorded candidate: its prompt.md and evaluation.json. */
export async function loadCandidate(
  runDir: string,
  iteration: number,
  candidate: number,
): Promise<StoredCandidate> {
  const [prompt, stored] = await Promise.all([
    readFile(candidatePaths(runDir, iteration, candidate).prompt, 'utf8'),
    loadCandidateEvaluation(runDir, iteration, candidate),
  ]);
  return { iteration, candidate, prompt, ...stored };
}

/** The one IncumbentView builder: a candidate with the standing it is compared with. */
export function incumbentView(
  candidate: StoredCandidate,
  standing: Pick<IncumbentView, 'train' | 'holdout' | 'eligible'>,
): IncumbentView {
  return {
    iteration: candidate.iteration,
    candidate: candidate.candidate,
    prompt: candidate.prompt,
    train: standing.train,
    holdout: standing.holdout,
    eligible: standing.eligible,
    evaluation: candidate.evaluation,
    trainScore: candidate.scores.train,
    scores: candidate.scores,
  };
}

export async function loadIncumbent(runDir: string, state: RunState): Promise<IncumbentView> {
  const incumbent = state.incumbent;
  if (!incumbent || incumbent.train === null) throw new Error('the run has no scored incumbent yet');
  const record = state.iterations.find((it) => it.iteration === incumbent.iteration);
  const stored = await loadCandidate(runDir, incumbent.iteration, record?.candidate ?? 0);
  return incumbentView(stored, {
    train: incumbent.train,
    holdout: incumbent.holdout,
    eligible: incumbent.eligible,
  });
}
