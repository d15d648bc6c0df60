/**
 * What the runner gives every review call, the judge's and the grader's alike
 * (docs/design/judge-protocol.md, docs/design/grader-protocol.md): the evaluation's side of its
 * contract with both review parts, so it lives with neither.
 */

/** None of it is shown to the judge or grader. */
export interface ReviewCallOptions {
  /** The run's Ctrl-C, and the other side of the review failing. */
  signal: AbortSignal;
  /** The ledger account the model calls go on (the candidate being evaluated). */
  account?: string;
}
