/**
 * Writes what one candidate evaluation produced into its record folder
 * (docs/design/run-records.md), so the morning review can show every output, check, judge score and
 * grader verdict. Every file is written atomically; `evaluation.json` holds the scoring input so a
 * resumed run can rebuild the incumbent's feedback without calling a model.
 */
import { mkdir } from 'node:fs/promises';
import { buildJudgeScoresFile } from '../judge/judge-scores.js';
import { writeJsonAtomic, writeReviewJson, writeTextAtomic } from '../run/records.js';
import type { CandidatePaths } from '../run/paths.js';
import type { SampleChecks } from '../checks/check-result.js';
import type { CandidateResult } from './candidate-result.js';
import type { CandidateOutcome, Generation } from './evaluate-types.js';
import { outputText } from './output-text.js';
import { join } from 'node:path';

export async function writeCandidatePrompt(paths: CandidatePaths, prompt: string): Promise<void> {
  await writeTextAtomic(paths.prompt, prompt);
}

/**
 * Writes one candidate's record folder as the evaluation produces it: each output file as soon
 * as it is generated and checks.json once the checks are done (both while the model calls and
 * the judge still run), the rest in finish().
 *
 * The review files (outputs, checks, judge scores and map, gradings, error) are not fsynced: a
 * killed process loses none of them, and a power failure could lose only what the morning
 * review shows, never what a resume needs. evaluation.json — the scores and feedback a resumed
 * run rebuilds its incumbent from — is fsynced, like the prompt, before the journal counts the
 * evaluation as done. One fsync per evaluation instead of one per file (BENCHMARKS.md,
 * benchmark 2). An evaluation that stops half-way leaves the files it had; a resumed run
 * evaluates the candidate again and replaces them.
 */
export interface CandidateRecordWriter {
  /** Starts writing one output's file. */
  output(generation: Generation): void;
  /** Starts writing checks.json. */
  checks(results: readonly SampleChecks[]): void;
  /** Writes whatever is not written yet, then waits for every write (the first failure throws). */
  finish(outcome: CandidateOutcome): Promise<void>;
  /** After a failed evaluation: waits for the writes in flight, whatever became of them. */
  settle(): Promise<void>;
}

function outputFileText(generation: Generation): string {
  return generation.ok ? outputText(generation) : `[generation failed] ${generation.error ?? ''}\n`;
}

export function createCandidateRecordWriter(paths: CandidatePaths): CandidateRecordWriter {
  const writes: Promise<void>[] = [];
  const start = (write: Promise<void>) => {
    // Awaited by finish or settle; until then a failure must not count as unhandled.
    write.catch(() => undefined);
    writes.push(write);
  };
  // Each folder once, not once per file.
  let outputsFolder: Promise<unknown> | undefined;
  const outputsWritten = new Set<string>();
  let checksWritten = false;
  const writeOutput = (g: Generation) => {
    const file = paths.output(g.caseId, g.sample);
    outputsWritten.add(file);
    outputsFolder ??= mkdir(paths.outputs, { recursive: true });
    const folder = outputsFolder;
    start(
      (async () => {
        await folder;
        await writeTextAtomic(file, outputFileText(g), { durable: false });
      })(),
    );
  };
  const writeJson = (file: string, value: unknown) => start(writeReviewJson(file, value));
  return {
    output: writeOutput,
    checks(results) {
      checksWritten = true;
      writeJson(paths.checks, { results });
    },
    async finish(outcome) {
      for (const g of outcome.generations) {
        if (!outputsWritten.has(paths.output(g.caseId, g.sample))) writeOutput(g);
      }
      if (!outcome.ok) {
        writeJson(join(paths.dir, 'error.json'), { kind: outcome.errorKind, message: outcome.message });
      } else {
        if (!checksWritten) writeJson(paths.checks, { results: outcome.evaluation.checks });
        if (outcome.judge) {
          const keys = outcome.evaluation.judge?.criteria.map((c) => c.key) ?? [];
          writeJson(paths.judgeScores, buildJudgeScoresFile(outcome.judge.perOutput, keys));
          writeJson(paths.judgeMap, outcome.judge.map);
        }
        if (outcome.gradings.length > 0) {
          const folder = mkdir(paths.grading, { recursive: true });
          for (const g of outcome.gradings) {
            start(folder.then(() => writeReviewJson(paths.caseGrading(g.caseId), g.grading)));
          }
        }
        start(
          writeJsonAtomic(paths.evaluation, {
            evaluation: outcome.evaluation,
            scores: outcome.scores,
            costUsd: outcome.costUsd,
          } satisfies CandidateResult),
        );
      }
      await Promise.all(writes);
    },
    async settle() {
      await Promise.allSettled(writes);
    },
  };
}
