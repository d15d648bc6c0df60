/**
 * Writers for every run file other than the journal. Each one replaces its file atomically
 * (write a temporary file, fsync, rename), so a crash leaves the old file or the new one,
 * never half of either. Files derived from the journal skip the fsync: resume rewrites them.
 */
import { type AtomicWriteOptions, writeFileAtomic } from '../atomic-file.js';
import type { DecisionRecord } from './decision-record.js';
import type { MutationRecord } from './mutation-record.js';
import { iterationPaths, runPaths } from './paths.js';
import { formatResultsTsv } from './results-tsv.js';
import type { RunState } from './run-state.js';

export async function writeTextAtomic(
  file: string,
  text: string,
  options: AtomicWriteOptions = {},
): Promise<void> {
  await writeFileAtomic(file, text, options);
}

/** Pretty JSON with a trailing newline, so the files read well and diff cleanly. */
export async function writeJsonAtomic(
  file: string,
  value: unknown,
  options: AtomicWriteOptions = {},
): Promise<void> {
  await writeTextAtomic(file, `${JSON.stringify(value, null, 2)}\n`, options);
}

/**
 * A file only the review reads (mutation.json, decision.json, outputs, …): atomic but not
 * fsynced. A killed process loses none of it; a power failure could lose the last few, which
 * the report then shows as missing. What a resume reads (prompt.md, evaluation.json, best.md,
 * manifest.json, the journal) is always fsynced.
 */
export async function writeReviewJson(file: string, value: unknown): Promise<void> {
  await writeJsonAtomic(file, value, { durable: false });
}

/** Derived from the journal (every finish and every resume rewrites it), so not fsynced. */
export async function writeResultsTsv(runDir: string, state: RunState): Promise<void> {
  await writeTextAtomic(runPaths(runDir).results, formatResultsTsv(state), { durable: false });
}

export async function writeBest(runDir: string, prompt: string): Promise<void> {
  await writeTextAtomic(runPaths(runDir).best, prompt);
}

export async function writeDecision(
  runDir: string,
  iteration: number,
  decision: DecisionRecord,
): Promise<void> {
  await writeReviewJson(iterationPaths(runDir, iteration).decision, decision);
}

export async function writeMutation(
  runDir: string,
  iteration: number,
  mutation: MutationRecord,
): Promise<void> {
  await writeReviewJson(iterationPaths(runDir, iteration).mutation, mutation);
}
