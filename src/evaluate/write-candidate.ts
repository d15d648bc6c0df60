/**
 * Writes what one candidate evaluation produced into its record folder (SPEC 10), so the
 * morning review can show every output, check, judge score and grader verdict. Every file is
 * written atomically; `evaluation.json` holds the scoring input so a resumed run can rebuild
 * the incumbent's feedback without calling a model.
 */
import { mkdir } from 'node:fs/promises';
import { buildJudgeScoresFile } from '../judge/judge-scores.js';
import { writeJsonAtomic, writeTextAtomic } from '../run/records.js';
import type { CandidatePaths } from '../run/paths.js';
import type { CandidateOutcome } from './evaluate-candidate.js';
import { join } from 'node:path';

export function evaluationFile(paths: CandidatePaths): string {
  return join(paths.dir, 'evaluation.json');
}

export async function writeCandidatePrompt(paths: CandidatePaths, prompt: string): Promise<void> {
  await mkdir(paths.dir, { recursive: true });
  await writeTextAtomic(paths.prompt, prompt);
}

export async function writeCandidateRecords(paths: CandidatePaths, outcome: CandidateOutcome): Promise<void> {
  await mkdir(paths.outputs, { recursive: true });
  await Promise.all(
    outcome.generations.map((g) =>
      writeTextAtomic(
        paths.output(g.caseId, g.sample),
        g.ok ? g.text : `[generation failed] ${g.error ?? ''}\n`,
      ),
    ),
  );
  if (!outcome.ok) {
    await writeJsonAtomic(join(paths.dir, 'error.json'), {
      kind: outcome.errorKind,
      message: outcome.message,
    });
    return;
  }
  await writeJsonAtomic(paths.checks, { results: outcome.evaluation.checks });
  if (outcome.judge) {
    const keys = outcome.evaluation.judge?.criteria.map((c) => c.key) ?? [];
    await writeJsonAtomic(paths.judgeScores, buildJudgeScoresFile(outcome.judge.perOutput, keys));
    await writeJsonAtomic(paths.judgeMap, outcome.judge.map);
  }
  if (outcome.gradings.length > 0) {
    await mkdir(paths.grading, { recursive: true });
    await Promise.all(outcome.gradings.map((g) => writeJsonAtomic(paths.caseGrading(g.caseId), g.grading)));
  }
  await writeJsonAtomic(evaluationFile(paths), {
    evaluation: outcome.evaluation,
    scores: outcome.scores,
    costUsd: outcome.costUsd,
  });
}
