/**
 * `runs/<id>/calibration.json` (docs/design/judge-reliability.md): how far the experiment's judge
 * (and grader) agreed with the human labels, per criterion with seeded bootstrap intervals, every
 * labelled output beside the judge's scores, and the bias probes. `calibrate --json` prints it and
 * `show` displays it. Version 1; fields are only ever added.
 */
import * as z from 'zod';
import { SpendRole } from '../run/events.js';
import { ProbeResult } from './probe-result.js';

export const CALIBRATION_FORMAT = 1;
export const CALIBRATION_FILE = 'calibration.json';

/** A statistic and its interval; null when the data leave it undefined (see stats/agreement.ts). */
export const Estimate = z.strictObject({
  estimate: z.number().nullable(),
  interval: z.tuple([z.number(), z.number()]).nullable(),
});
export type Estimate = z.infer<typeof Estimate>;

export const CriterionAgreement = z.strictObject({
  criterion: z.string(),
  title: z.string(),
  /** Labelled outputs with a human score for this criterion. */
  labels: z.number().int().min(0),
  humanMean: z.number().nullable(),
  judgeMean: z.number().nullable(),
  exact: Estimate,
  withinOne: Estimate,
  kappa: Estimate,
  spearman: Estimate,
});
export type CriterionAgreement = z.infer<typeof CriterionAgreement>;

export const ExpectationsAgreement = z.strictObject({
  /** Labelled (output, expectation) pairs. */
  labels: z.number().int().min(0),
  tp: z.number().int().min(0),
  fp: z.number().int().min(0),
  tn: z.number().int().min(0),
  fn: z.number().int().min(0),
  tpr: Estimate,
  tnr: Estimate,
  mcc: Estimate,
});
export type ExpectationsAgreement = z.infer<typeof ExpectationsAgreement>;

export const LabelledExpectation = z.strictObject({
  text: z.string(),
  human: z.boolean(),
  grader: z.boolean(),
  /** Why a PASS was turned into a FAIL (an unverifiable quote), as the grader check says. */
  flag: z.string().optional(),
});

export const LabelledOutput = z.strictObject({
  /** 0-based position in the labels file, and its line. */
  label: z.number().int().min(0),
  line: z.number().int().min(1),
  case: z.string().nullable(),
  file: z.string().nullable(),
  human: z.record(z.string(), z.number().int().min(1).max(5)),
  /** The judge's score per criterion (the mean over its samples); empty when nothing was judged. */
  judge: z.record(z.string(), z.number()),
  reasoning: z.string().nullable(),
  expectations: z.array(LabelledExpectation),
});
export type LabelledOutput = z.infer<typeof LabelledOutput>;

export const CalibrationFile = z.strictObject({
  format: z.literal(CALIBRATION_FORMAT),
  runId: z.string(),
  experiment: z.string(),
  createdAt: z.iso.datetime({ offset: true }),
  /** The labels file (relative to the project root), its digest and entry count. */
  labels: z.strictObject({ file: z.string(), sha256: z.string(), count: z.number().int().min(0) }),
  /** The judge and grader measured, as the transcript names models. */
  judge: z.string().nullable(),
  grader: z.string().nullable(),
  simulated: z.array(SpendRole),
  bootstrap: z.strictObject({
    resamples: z.number().int().min(1),
    level: z.number().gt(0).lt(1),
    seed: z.number().int(),
  }),
  criteria: z.array(CriterionAgreement),
  expectations: ExpectationsAgreement.nullable(),
  /** The criterion with the lowest kappa (what --fail-under-kappa reads); null when none is defined. */
  lowestKappa: z.strictObject({ criterion: z.string(), kappa: z.number() }).nullable(),
  outputs: z.array(LabelledOutput),
  /** The bias probes; null when they were not run (--no-probes). */
  probes: z.array(ProbeResult).nullable(),
  costUsd: z.number().min(0),
  seconds: z.number().min(0),
});
export type CalibrationFile = z.infer<typeof CalibrationFile>;

/** "1 labelled output", "16 labelled outputs": how the command, the journal and show count them. */
export function labelledOutputs(count: number): string {
  return `${count} labelled output${count === 1 ? '' : 's'}`;
}
