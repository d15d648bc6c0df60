/**
 * Turns one evaluated candidate into the eval report (eval-report.ts), pure: scores and
 * signals per split, per-check pass rates, criteria, gate failures, per-case findings, cost.
 * A failed evaluation (judge or grader error) carries the error and no scores.
 */
import { ROLES } from '../experiment/roles.js';
import { VerifiedGrading } from '../grader/verify-grading.js';
import type { LedgerSnapshot } from '../providers/ledger.js';
import type { SpendRole } from '../run/events.js';
import { casesInSplit } from '../scoring/score-split.js';
import type { Evaluation, SplitScore } from '../scoring/types.js';
import { describeCases } from './case-findings.js';
import { countExpectations, rateChecks } from './check-rates.js';
import type { CandidateOutcome } from '../evaluate/evaluate-types.js';
import { type CostReport, EVAL_REPORT_VERSION, type EvalReport, type SplitReport } from './eval-report.js';

export interface EvalReportMeta {
  runId: string;
  runDir: string;
  experiment: string;
  simulatedRoles: SpendRole[];
  samples: number;
  seconds: number;
  cost: CostReport;
  /** Generator seconds per case id. */
  caseSeconds: Readonly<Record<string, number>>;
}

export function buildEvalReport(outcome: CandidateOutcome, meta: EvalReportMeta): EvalReport {
  const base = {
    version: EVAL_REPORT_VERSION,
    runId: meta.runId,
    runDir: meta.runDir,
    experiment: meta.experiment,
    simulated: meta.simulatedRoles.length > 0,
    simulatedRoles: meta.simulatedRoles,
    samples: meta.samples,
    seconds: meta.seconds,
    cost: meta.cost,
  } as const;
  if (!outcome.ok) {
    return {
      ...base,
      status: 'error',
      error: { kind: outcome.errorKind, message: outcome.message },
      splits: null,
      cases: [],
      failUnder: null,
    };
  }
  const { evaluation, scores } = outcome;
  const panel = evaluation.judge?.panel;
  const gradings = new Map<string, VerifiedGrading>();
  for (const item of outcome.gradings) {
    const parsed = VerifiedGrading.safeParse(item.grading);
    if (parsed.success) gradings.set(item.caseId, parsed.data);
  }
  return {
    ...base,
    status: 'ok',
    error: null,
    splits: {
      train: describeSplit(evaluation, scores.train),
      holdout: describeSplit(evaluation, scores.holdout),
      all: describeSplit(evaluation, scores.all),
      ...(scores.test ? { test: describeSplit(evaluation, scores.test) } : {}),
    },
    cases: describeCases({
      evaluation,
      scores: [...scores.all.cases, ...(scores.test?.cases ?? [])],
      gradings,
      seconds: meta.caseSeconds,
    }),
    failUnder: null,
    ...(panel === undefined
      ? {}
      : {
          judgePanel: {
            aggregate: panel.aggregate,
            members: panel.members.map((m) => m.label),
            alpha: panel.alpha,
            alphaByCriterion: panel.alphaByCriterion,
          },
        }),
  };
}

function describeSplit(evaluation: Evaluation, score: SplitScore): SplitReport {
  const cases = casesInSplit(evaluation, score.split);
  return {
    split: score.split,
    cases: cases.length,
    total: score.total,
    signals: {
      checks: score.checks ?? null,
      judge: score.judge ?? null,
      expectations: score.expectations ?? null,
    },
    gateFailed: score.gateFailed,
    gateFailures: score.gateFailures,
    criteria: score.criteria,
    checks: rateChecks(evaluation, cases),
    expectations: countExpectations(evaluation, cases),
  };
}

export function costFromLedger(snapshot: LedgerSnapshot): CostReport {
  const byRole: CostReport['byRole'] = {};
  // In the roles' own order: the ledger meets them in whatever order their calls finished
  // (the judge and the graders run side by side).
  for (const role of ROLES) {
    const totals = snapshot.byRole[role];
    if (totals && totals.calls > 0) byRole[role] = { usd: totals.usd, calls: totals.calls };
  }
  return {
    usd: snapshot.total.usd,
    calls: snapshot.total.calls,
    unpricedCalls: snapshot.total.unpricedCalls,
    byRole,
  };
}
