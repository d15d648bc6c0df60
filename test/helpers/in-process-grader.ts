/**
 * A grader that runs in the test's process, behind the same interface as the sandboxed one: it
 * receives one case's expectations, variables, generator description and outputs, decides each
 * expectation with the test's function and hands its file to the runner's own verification
 * (so a PASS still needs evidence quoted from an output). Every request it saw is kept.
 *
 *   const grader = createInProcessGrader((expectation, outputs) => outputs.some((o) => o.includes('Ada')));
 */
import type { Grader, GraderCase, GraderResult } from '../../src/grader/grader.js';
import { verifyGrading } from '../../src/grader/verify-grading.js';

/** Whether one expectation holds for the case's outputs; throw to make a grader_error. */
export type PassExpectation = (expectation: string, outputs: readonly string[]) => boolean;

export interface InProcessGrader extends Grader {
  readonly requests: GraderCase[];
}

export function createInProcessGrader(pass: PassExpectation): InProcessGrader {
  const requests: GraderCase[] = [];
  return {
    requests,
    async grade(request, options) {
      requests.push(request);
      // Like the sandboxed grader: stopped, it reports a failure rather than throwing.
      if (options.signal.aborted) return { ok: false, kind: 'grader_error', message: 'stopped', attempts: 0 };
      return gradeInProcess(request, pass);
    },
  };
}

function gradeInProcess(request: GraderCase, pass: PassExpectation): GraderResult {
  const outputs = request.outputs.map((o) => o.text);
  let raw: unknown;
  try {
    raw = {
      expectations: request.expectations.map((text) => {
        const passed = pass(text, outputs);
        // A PASS quotes the output it rests on, as the runner's verification demands.
        return { text, passed, evidence: passed ? (outputs[0] ?? '').trim() : 'not found in any output' };
      }),
    };
  } catch (error) {
    return { ok: false, kind: 'grader_error', message: (error as Error).message, attempts: 1 };
  }
  const checked = verifyGrading(raw, { expectations: request.expectations, outputs });
  if (!checked.ok)
    return { ok: false, kind: 'grader_error', message: checked.problems.join('; '), attempts: 1 };
  return { ok: true, grading: checked.grading, raw, attempts: 1 };
}
