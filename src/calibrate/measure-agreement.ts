/**
 * From the labelled outputs with the judge's and grader's verdicts beside them to the figures
 * of calibration.json, pure. Per criterion: exact and within-one agreement and quadratic kappa
 * on the judge's score rounded to the scale (a mean over judge samples, 3.5 → 4), Spearman on
 * the score as it is; each with a seeded percentile bootstrap interval over the labelled
 * outputs. Expectations: TPR, TNR and MCC over the labelled (output, expectation) pairs.
 */
import type { RubricCriterion } from '../experiment/types.js';
import {
  confusion,
  exactAgreement,
  matthews,
  quadraticKappa,
  SCALE_MAX,
  SCALE_MIN,
  spearman,
  trueNegativeRate,
  truePositiveRate,
  withinOneAgreement,
} from '../stats/agreement.js';
import { bootstrapInterval, pick } from '../stats/bootstrap.js';
import type {
  CalibrationFile,
  CriterionAgreement,
  Estimate,
  ExpectationsAgreement,
  LabelledOutput,
} from './calibration-file.js';

export interface BootstrapSettings {
  resamples: number;
  level: number;
  seed: number;
}

type Statistic<T> = (items: readonly T[]) => number | null;

function estimate<T>(items: readonly T[], statistic: Statistic<T>, settings: BootstrapSettings): Estimate {
  return {
    estimate: statistic(items),
    interval: bootstrapInterval({
      n: items.length,
      statistic: (indexes) => statistic(pick(items, indexes)),
      ...settings,
    }),
  };
}

/** The judge's score on the rubric's integer scale. */
export function toScale(score: number): number {
  return Math.min(SCALE_MAX, Math.max(SCALE_MIN, Math.round(score)));
}

interface Pair {
  human: number;
  judge: number;
}

const humans = (pairs: readonly Pair[]) => pairs.map((p) => p.human);
const judgedOnScale = (pairs: readonly Pair[]) => pairs.map((p) => toScale(p.judge));

function mean(values: readonly number[]): number | null {
  return values.length === 0 ? null : values.reduce((s, v) => s + v, 0) / values.length;
}

export function measureCriteria(
  outputs: readonly LabelledOutput[],
  criteria: readonly RubricCriterion[],
  settings: BootstrapSettings,
): CriterionAgreement[] {
  return criteria.map((criterion) => {
    const pairs: Pair[] = [];
    for (const output of outputs) {
      const human = output.human[criterion.key];
      const judge = output.judge[criterion.key];
      if (human !== undefined && judge !== undefined) pairs.push({ human, judge });
    }
    return {
      criterion: criterion.key,
      title: criterion.title,
      labels: pairs.length,
      humanMean: mean(humans(pairs)),
      judgeMean: mean(pairs.map((p) => p.judge)),
      exact: estimate(pairs, (ps) => exactAgreement(humans(ps), judgedOnScale(ps)), settings),
      withinOne: estimate(pairs, (ps) => withinOneAgreement(humans(ps), judgedOnScale(ps)), settings),
      kappa: estimate(pairs, (ps) => quadraticKappa(humans(ps), judgedOnScale(ps)), settings),
      spearman: estimate(
        pairs,
        (ps) =>
          spearman(
            humans(ps),
            ps.map((p) => p.judge),
          ),
        settings,
      ),
    };
  });
}

interface Verdicts {
  human: boolean;
  grader: boolean;
}

export function measureExpectations(
  outputs: readonly LabelledOutput[],
  settings: BootstrapSettings,
): ExpectationsAgreement | null {
  const pairs: Verdicts[] = outputs.flatMap((o) => o.expectations);
  if (pairs.length === 0) return null;
  const table = (ps: readonly Verdicts[]) =>
    confusion(
      ps.map((p) => p.human),
      ps.map((p) => p.grader),
    );
  return {
    labels: pairs.length,
    ...table(pairs),
    tpr: estimate(pairs, (ps) => truePositiveRate(table(ps)), settings),
    tnr: estimate(pairs, (ps) => trueNegativeRate(table(ps)), settings),
    mcc: estimate(pairs, (ps) => matthews(table(ps)), settings),
  };
}

/** The criterion with the lowest defined kappa (the rubric's first on a tie). */
export function findLowestKappa(criteria: readonly CriterionAgreement[]): CalibrationFile['lowestKappa'] {
  let lowest: CalibrationFile['lowestKappa'] = null;
  for (const c of criteria) {
    const kappa = c.kappa.estimate;
    if (kappa !== null && (lowest === null || kappa < lowest.kappa))
      lowest = { criterion: c.criterion, kappa };
  }
  return lowest;
}
