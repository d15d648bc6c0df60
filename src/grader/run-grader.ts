/**
 * Runs the grader for one case (docs/design/grader-protocol.md) under the judge's sandbox and proxy
 * discipline: the built-in `autoresearch grade` or the user's `grader.command` writes
 * `grading.json`; the runner checks the expectations are exactly the ones asked, recomputes the
 * summary and verifies every PASS against the outputs (and an agent case's transcripts). Anything invalid is retried, then reported
 * as a `grader_error`.
 */
import { isProgramEntry } from '../experiment/program-entry.js';
import type { JudgeEntry } from '../experiment/schema.js';
import { runInSandbox, type SandboxRunOptions } from '../sandbox/run-in-sandbox.js';
import type { ProviderError } from '../providers/types.js';
import {
  EXPECTATIONS_FILE,
  type GraderCase,
  GRADING_FILE,
  graderEvidence,
  planGraderFiles,
} from './grader-layout.js';
import { type VerifiedGrading, verifyGrading } from './verify-grading.js';

export interface RunGraderOptions extends GraderCase, SandboxRunOptions {
  grader: JudgeEntry;
}

export type GraderRunResult =
  | { ok: true; grading: VerifiedGrading; raw: unknown; attempts: number }
  | { ok: false; kind: 'grader_error'; message: string; attempts: number; providerError?: ProviderError };

export const DEFAULT_GRADER_TIMEOUT_MS = 10 * 60 * 1000;
export const DEFAULT_GRADER_ATTEMPTS = 2;

const BUILTIN_GRADER_ARGS = ['grade', '.', '--expectations', EXPECTATIONS_FILE];

export async function runGrader(options: RunGraderOptions): Promise<GraderRunResult> {
  const fail = (message: string): GraderRunResult => ({
    ok: false,
    kind: 'grader_error',
    message,
    attempts: 0,
  });
  if (options.outputs.length === 0) return fail('there are no outputs to grade');
  if (options.expectations.length === 0) return fail('there are no expectations to grade');
  if (!isProgramEntry(options.grader) && options.client === undefined) {
    throw new Error('runGrader: a model grader needs the run’s grader client');
  }
  const input = { expectations: options.expectations, ...graderEvidence(options) };
  const result = await runInSandbox({
    ...options,
    program: { entry: options.grader, builtinArgs: BUILTIN_GRADER_ARGS },
    files: planGraderFiles(options),
    resultFile: GRADING_FILE,
    who: 'grader',
    timeoutMs: options.timeoutMs ?? DEFAULT_GRADER_TIMEOUT_MS,
    attempts: options.attempts ?? DEFAULT_GRADER_ATTEMPTS,
    accept: (json) => {
      const checked = verifyGrading(json, input);
      return checked.ok
        ? { ok: true, value: checked.grading }
        : { ok: false, problem: checked.problems.join('; ') };
    },
  });
  if (!result.ok) return { kind: 'grader_error', ...result };
  return { ok: true, grading: result.value, raw: result.raw, attempts: result.attempts };
}
