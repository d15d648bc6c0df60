/**
 * The product's grader: the built-in `autoresearch grade` or the user's `grader.command`, one
 * fresh sandbox per case behind the model proxy (run-grader.ts).
 */
import { type SandboxedPartOptions, sandboxOptions } from '../sandbox/sandboxed-part.js';
import type { Grader } from './grader.js';
import { runGrader } from './run-grader.js';

export function createSandboxedGrader(options: SandboxedPartOptions): Grader {
  return {
    grade: (request, call) =>
      runGrader({ grader: options.entry, ...sandboxOptions(options, call), ...request }),
  };
}
