/**
 * One bias probe's finding (SPEC 15), as calibration.json records it and `calibrate` prints
 * it: the probes themselves live in probes.ts. order/length: the mean change of the weighted
 * score (1–5 scale) with its 95% interval; repeat: the share of outputs whose scores were
 * identical in all k samples, with its interval. `applicable: false` (e.g. the order probe on
 * a judge that scores one output per call) comes with null figures and a verdict saying why.
 */
import * as z from 'zod';

export const ProbeResult = z.strictObject({
  probe: z.enum(['order', 'length', 'repeat']),
  applicable: z.boolean(),
  estimate: z.number().nullable(),
  interval: z.tuple([z.number(), z.number()]).nullable(),
  biased: z.boolean().nullable(),
  /** Plain words, e.g. "no position bias detected (…)". */
  verdict: z.string(),
  /** Judge runs the probe took. */
  calls: z.number().int().min(0),
});
export type ProbeResult = z.infer<typeof ProbeResult>;
