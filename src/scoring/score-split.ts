/**
 * Scores one candidate evaluation on a split (train, holdout, or all cases): the three
 * signals, their weighted total, gates, the criterion breakdown and per-case totals (the
 * mutator's pick of the worst train cases). Train and holdout are scored the same way.
 */
import { checksSignal } from './checks-signal.js';
import { combine } from './combine.js';
import { expectationsSignal } from './expectations-signal.js';
import { judgeSignal } from './judge-signal.js';
import type { CaseScore, Evaluation, Signals, SplitScore } from './types.js';

function defined(signals: Signals): Signals {
  return Object.fromEntries(Object.entries(signals).filter(([, value]) => value !== undefined)) as Signals;
}

export function scoreSplit(evaluation: Evaluation, split: 'train' | 'holdout' | 'all'): SplitScore {
  const cases = split === 'all' ? evaluation.cases : evaluation.cases.filter((c) => c.split === split);
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
