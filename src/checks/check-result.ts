/**
 * What a check yields (docs/design/checks.md) and how it is recorded in `checks.json`. One shape
 * for success and failure: a check that crashes is a failed result with `error: true`, not an
 * exception, so a negated check never turns a crash into a pass.
 */
import * as z from 'zod';

export const CheckResult = z.object({
  pass: z.boolean(),
  score: z.number().min(0).max(1),
  reason: z.string(),
  /** The check could not judge the output (bad config, crash, timeout): negation leaves it failed. */
  error: z.boolean().optional(),
});
export type CheckResult = z.infer<typeof CheckResult>;

/** One check applied to one output, as the scorer and the records see it. */
export const CheckOutcome = z.object({
  /** Display name: the entry's `name`, else the type and a short value. */
  name: z.string(),
  /** The type as written, `not-` prefix included. */
  type: z.string(),
  weight: z.number().min(0),
  gate: z.boolean(),
  pass: z.boolean(),
  score: z.number().min(0).max(1),
  reason: z.string(),
  error: z.boolean().optional(),
});
export type CheckOutcome = z.infer<typeof CheckOutcome>;

/** The outcomes of every check (global then case) on one (case, sample) output. */
export const SampleChecks = z.object({
  caseId: z.string(),
  sample: z.number().int().min(0),
  outcomes: z.array(CheckOutcome),
});
export type SampleChecks = z.infer<typeof SampleChecks>;

/** `candidates/<k>/checks.json`: one entry per (case, sample). */
export const ChecksFile = z.object({
  results: z.array(SampleChecks),
});
export type ChecksFile = z.infer<typeof ChecksFile>;

export function passed(reason: string): CheckResult {
  return { pass: true, score: 1, reason };
}

export function failed(reason: string): CheckResult {
  return { pass: false, score: 0, reason };
}

export function errored(reason: string): CheckResult {
  return { pass: false, score: 0, reason, error: true };
}

export function verdict(pass: boolean, reason: string): CheckResult {
  return pass ? passed(reason) : failed(reason);
}
