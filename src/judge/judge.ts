/**
 * The judge as the evaluation sees it (docs/design/judge-protocol.md): a part passed in. It is
 * shown the outputs that generated successfully and the rubric — nothing about the prompt, the
 * iteration or the scores so far, and the cases' inputs only under `judging.inputs`
 * (docs/design/judge-protocol.md) — and returns a score per output and criterion, or a
 * `judge_error`. The product's implementation is the sandboxed program (sandboxed-judge.ts); tests
 * pass one that runs in-process.
 */
import type { Rubric } from '../experiment/types.js';
import type { ReviewCallOptions } from '../protocol/review-call.js';
import type { JudgeOutput } from './judge-layout.js';
import type { JudgeRunResult } from './run-judge.js';

export type { JudgeOutput } from './judge-layout.js';
export type { JudgedOutput, JudgeRunResult as JudgeResult } from './run-judge.js';

export interface JudgeRequest {
  /** Successful generations only: a failed one is never sent (docs/design/checks.md). */
  outputs: readonly JudgeOutput[];
  rubric: Rubric;
  /** Seeds the order the judge sees the outputs in. */
  seed: number;
  /**
   * Re-judging that must not be served from the cache (docs/design/judge-reliability.md: bias
   * probes, drift anchors): every model call is a new sample, its index counted from `sampleBase`.
   */
  fresh?: { sampleBase: number };
}

/** One evaluation's judging: opened early, judged once, closed whatever happened. */
export interface JudgeSession {
  judge(request: JudgeRequest): Promise<JudgeRunResult>;
  /** Releases whatever was prepared and not used (nothing once judge() has run). */
  close(): Promise<void>;
}

export interface Judge {
  /**
   * Called once the evaluation's first output is in: an implementation may warm up (start its
   * process) while the rest generate. Opening costs no model call.
   */
  open(options: ReviewCallOptions): JudgeSession;
}
