/**
 * Writers for every run file other than the journal. Each one replaces its file atomically
 * (write a temporary file, fsync, rename), so a crash leaves the old file or the new one,
 * never half of either.
 */
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { runPaths } from './paths.js';
import { formatResultsTsv } from './results-tsv.js';
import type { RunState } from './run-state.js';

export async function writeTextAtomic(file: string, text: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFileAtomic(file, text, { encoding: 'utf8', fsync: true });
}

/** Pretty JSON with a trailing newline, so the files read well and diff cleanly. */
export async function writeJsonAtomic(file: string, value: unknown): Promise<void> {
  await writeTextAtomic(file, `${JSON.stringify(value, null, 2)}\n`);
}

export async function writeResultsTsv(runDir: string, state: RunState): Promise<void> {
  await writeTextAtomic(runPaths(runDir).results, formatResultsTsv(state));
}

export async function writeBest(runDir: string, prompt: string): Promise<void> {
  await writeTextAtomic(runPaths(runDir).best, prompt);
}
