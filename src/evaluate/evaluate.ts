/**
 * The evaluation stage's one entry: a candidate evaluated into its record folder (prompt.md,
 * each output as it is generated, checks.json before the judge runs, then the judge's scores,
 * the gradings and evaluation.json), in one stage or — under screening
 * (docs/design/paired-acceptance.md) — a minibatch first and the rest only when it passes. With a
 * journal, its phase changes and, once the record is written, its `candidate_evaluated` go to the
 * run's journal. The loop's baseline, iterations, retests and final evaluation, the pareto search
 * (through paired acceptance) and `autoresearch eval` all evaluate through here.
 *
 *   evaluate ─▶ evaluate-and-record | staged-evaluation ─▶ evaluate-candidate (one pass):
 *     generate-and-check ─▶ review-outputs ─▶ score-candidate;  write-candidate (the record)
 */
import type { Experiment } from '../experiment/types.js';
import { candidateEvaluated } from './candidate-evaluated.js';
import { evaluateAndRecord } from './evaluate-and-record.js';
import type { CandidateJournal, EvaluateDeps, EvaluateRequest, EvaluationResult } from './evaluate-types.js';
import { evaluateStaged } from './staged-evaluation.js';
import { writeCandidatePrompt } from './write-candidate.js';

export async function evaluate(request: EvaluateRequest, deps: EvaluateDeps): Promise<EvaluationResult> {
  const { paths, screen, journal, ...input } = request;
  // Written while the evaluation runs (it needs no file); done before the journal counts it.
  const promptWritten = writeCandidatePrompt(paths, input.prompt);
  promptWritten.catch(() => undefined);
  const stageDeps = journal === undefined ? deps : { ...deps, onPhase: journalPhases(journal, deps) };
  const evaluated: Promise<EvaluationResult> = screen
    ? evaluateStaged(paths, input, screen, stageDeps)
    : evaluateAndRecord(paths, input, stageDeps).then((outcome) => ({ outcome, proceeded: true }));
  let result: EvaluationResult;
  try {
    result = await evaluated;
  } catch (error) {
    await promptWritten.catch(() => undefined);
    throw error;
  }
  await promptWritten;
  const { outcome } = result;
  if (journal !== undefined && outcome.ok) await journal.append(candidateEvaluated(journal, outcome));
  return result;
}

/**
 * The judge's shuffle seed of candidate `candidate` in iteration `iteration`: distinct per
 * candidate, the same on a resume.
 */
export function candidateSeed(experiment: Experiment, iteration: number, candidate: number): number {
  return experiment.config.search.seed + iteration * 1000 + candidate;
}

/** The caller's onPhase, and each phase change journaled (never one event per model call). */
function journalPhases(journal: CandidateJournal, deps: EvaluateDeps): NonNullable<EvaluateDeps['onPhase']> {
  let lastPhase: string | undefined;
  return (phase, progress) => {
    deps.onPhase?.(phase, progress);
    if (phase === lastPhase) return;
    lastPhase = phase;
    // A failed append is kept by the recorder and raised by its next emit.
    journal
      .append({ type: 'phase', iteration: journal.iteration, phase, candidate: journal.candidate })
      .catch(() => undefined);
  };
}
