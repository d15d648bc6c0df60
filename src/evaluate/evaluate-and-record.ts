/**
 * evaluateCandidate with its record folder written as it goes: each output's file as soon as
 * it is generated and checks.json before the judge runs, so the files are on disk while the
 * model calls still run instead of after the last one. Resolves once every file is written.
 */
import type { CandidatePaths } from '../run/paths.js';
import { evaluateCandidate } from './evaluate-candidate.js';
import type { CandidateOutcome, EvaluateDeps, EvaluateInput } from './evaluate-types.js';
import { createCandidateRecordWriter } from './write-candidate.js';

export async function evaluateAndRecord(
  paths: CandidatePaths,
  input: EvaluateInput,
  deps: EvaluateDeps,
): Promise<CandidateOutcome> {
  const writer = createCandidateRecordWriter(paths);
  let outcome: CandidateOutcome;
  try {
    outcome = await evaluateCandidate(input, {
      ...deps,
      agentRecordDir: paths.agent,
      onGenerated: (generation) => writer.output(generation),
      onChecked: (checks) => writer.checks(checks),
    });
  } catch (error) {
    await writer.settle();
    throw error;
  }
  await writer.finish(outcome);
  return outcome;
}
