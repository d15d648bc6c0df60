/**
 * Writes what one candidate evaluation produced into its record folder (SPEC 10), so the
 * morning review can show every output, check, judge score and grader verdict. Every file is
 * written atomically; `evaluation.json` holds the scoring input so a resumed run can rebuild
 * the incumbent's feedback without calling a model.
 */
import { mkdir } from 'node:fs/promises';
import { buildJudgeScoresFile } from '../judge/judge-scores.js';
import { writeJsonAtomic, writeReviewJson, writeTextAtomic } from '../run/records.js';
import type { CandidatePaths } from '../run/paths.js';
import type { CandidateOutcome } from './evaluate-candidate.js';
import { join } from 'node:path';

export function evaluationFile(paths: CandidatePaths): string {
  return join(paths.dir, 'evaluation.json');
}

export async function writeCandidatePrompt(paths: CandidatePaths, prompt: string): Promise<void> {
  await writeTextAtomic(paths.prompt, prompt);
}

/**
 * The review files (outputs, checks, judge scores and map, gradings, error) are written side by
 * side and not fsynced: a killed process loses none of them, and a power failure could lose
 * only what the morning review shows, never what a resume needs. evaluation.json — the scores
 * and feedback a resumed run rebuilds its incumbent from — is fsynced, like the prompt, before
 * the journal counts the evaluation as done. One fsync per evaluation instead of one per file
 * (BENCHMARKS.md, benchmark 2).
 */
export async function writeCandidateRecords(paths: CandidatePaths, outcome: CandidateOutcome): Promise<void> {
  // Each folder once, not once per file.
  await mkdir(paths.outputs, { recursive: true });
  if (outcome.ok && outcome.gradings.length > 0) await mkdir(paths.grading, { recursive: true });
  const writes: Promise<void>[] = outcome.generations.map((g) =>
    writeTextAtomic(
      paths.output(g.caseId, g.sample),
      g.ok ? g.text : `[generation failed] ${g.error ?? ''}\n`,
      { durable: false },
    ),
  );
  const writeJson = (file: string, value: unknown) => writes.push(writeReviewJson(file, value));
  if (!outcome.ok) {
    writeJson(join(paths.dir, 'error.json'), { kind: outcome.errorKind, message: outcome.message });
    await Promise.all(writes);
    return;
  }
  writeJson(paths.checks, { results: outcome.evaluation.checks });
  if (outcome.judge) {
    const keys = outcome.evaluation.judge?.criteria.map((c) => c.key) ?? [];
    writeJson(paths.judgeScores, buildJudgeScoresFile(outcome.judge.perOutput, keys));
    writeJson(paths.judgeMap, outcome.judge.map);
  }
  for (const g of outcome.gradings) writeJson(paths.caseGrading(g.caseId), g.grading);
  writes.push(
    writeJsonAtomic(evaluationFile(paths), {
      evaluation: outcome.evaluation,
      scores: outcome.scores,
      costUsd: outcome.costUsd,
    }),
  );
  await Promise.all(writes);
}
