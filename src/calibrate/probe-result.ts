/**
 * One bias probe's result (docs/design/judge-reliability.md) as `calibrate` records it in
 * `calibration.json` and prints it: what was measured, its 95% interval, whether it shows a bias,
 * and the verdict in plain words. The shape is shared with the calibration file's schema, so it is
 * a zod schema here.
 */
import * as z from 'zod';

export const ProbeName = z.enum(['order', 'length', 'repeat']);
export type ProbeName = z.infer<typeof ProbeName>;

export const ProbeResult = z.strictObject({
  probe: ProbeName,
  /** False for a probe that cannot apply to this judge (order, for a judge that sees one output per call). */
  applicable: z.boolean(),
  /**
   * order/length: mean change of the weighted score (1–5 scale) with its 95% interval;
   * repeat: share of outputs whose scores were identical in all k samples, with its interval.
   */
  estimate: z.number().nullable(),
  interval: z.tuple([z.number(), z.number()]).nullable(),
  /** null when the probe did not apply or could not tell. */
  biased: z.boolean().nullable(),
  /** Plain words, e.g. "no position bias detected (…)". */
  verdict: z.string(),
  /** Judge runs it took. */
  calls: z.number().int().min(0),
});
export type ProbeResult = z.infer<typeof ProbeResult>;
