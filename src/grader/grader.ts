/**
 * The grader as the evaluation sees it (docs/design/grader-protocol.md): a part passed in. For one
 * case it is shown the expectations, the case's variables, a description of the generator and that
 * case's successful outputs — never the prompt or any score — and returns a verified grading or a
 * `grader_error`. The product's implementation is the sandboxed program (sandboxed-grader.ts);
 * tests pass one that runs in-process.
 */
import type { ReviewCallOptions } from '../protocol/review-call.js';
import type { GraderCase } from './grader-layout.js';
import type { GraderRunResult } from './run-grader.js';

export type { GraderCase, GraderCaseOutput } from './grader-layout.js';
export type { GraderRunResult as GraderResult } from './run-grader.js';

export interface Grader {
  grade(request: GraderCase, options: ReviewCallOptions): Promise<GraderRunResult>;
}
