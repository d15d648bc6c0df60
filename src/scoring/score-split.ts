/**
 * Scores one candidate evaluation on a split (train, holdout, test, or all): the three
 * signals, their weighted total, gates, the criterion breakdown and per-case totals (the
 * mutator's pick of the worst train cases). Every split is scored the same way. `all` is the
 * loop's cases, train and holdout: a sealed test case never counts toward the gates that
 * make a candidate eligible, even in an evaluation (the final one) that scored it.
 */
import { checksSignal } from './checks-signal.js';
import { combine } from './combine.js';
import { expectationsSignal } from './expectations-signal.js';
import { judgeSignal } from './judge-signal.js';
import type { CaseScore, Evaluation, ScoredSplit, ScoringCase, Signals, SplitScore } from './types.js';

function defined(signals: Signals): Signals {
  return Object.fromEntries(Object.entries(signals).filter(([, value]) => value !== undefined)) as Signals;
}

export function casesInSplit(evaluation: Evaluation, split: ScoredSplit): ScoringCase[] {
  return evaluation.cases.filter((c) => (split === 'all' ? c.split !== 'test' : c.split === split));
}

export function scoreSplit(evaluation: Evaluation, split: ScoredSplit): SplitScore {
  const cases = casesInSplit(evaluation, split);
  const ids = new Set(cases.map((c) => c.id));
  const outputs = evaluation.outputs.filter((output) => ids.has(output.caseId));
  const scope = { cases, samples: evaluation.samples, outputs };
  const checks = checksSignal({ ...scope, checks: evaluation.checks });
  const judge = evaluation.judge ? judgeSignal({ ...scope, judge: evaluation.judge }) : undefined;
  const expectations = expectationsSignal({ ...scope, gradings: evaluation.gradings });
  const signals = defined({ checks: checks.value, judge: judge?.value, expectations: expectations.value });
  const caseScores: CaseScore[] = cases.map((c) => {
    const caseSignals = defined({
      checks: checks.perCase[c.id],
      judge: judge?.perCase[c.id],
      expectations: expectations.perCase[c.id],
    });
    return { caseId: c.id, split: c.split, total: combine(caseSignals, evaluation.weights), ...caseSignals };
  });
  return {
    split,
    total: combine(signals, evaluation.weights),
    ...signals,
    gateFailed: checks.gateFailed,
    gateFailures: checks.gateFailures,
    criteria: judge?.criteria ?? {},
    cases: caseScores,
  };
}
