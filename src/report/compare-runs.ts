/**
 * Two runs side by side (docs/design/commands-and-exit-codes.md, `compare`): how each ended, what
 * each reached and spent, and, case by case, how the two best prompts scored. Pure: each run's
 * overview, its scored evaluation and its best prompt in, one plain object out (also the
 * `compare --json` body).
 *
 * The two evaluations come from separate runs, so a case's difference carries both runs' judge
 * noise; the interval is the paired one the loop uses (docs/design/paired-acceptance.md), two-sided
 * at 95%, over the cases both runs scored.
 */
import { caseMeansOf, tallyOf } from '../loop/accept-paired.js';
import { pairCases, pairedInterval, type Interval } from '../loop/paired.js';
import type { CandidateScores } from '../evaluate/candidate-result.js';
import { diffPrompts, type DiffHunk } from './prompt-diff.js';
import type { RunOverview } from './overview.js';

/** Which evaluation of a run's best the comparison reads. */
export type EvaluationSource = 'final' | 'decided';

export interface RunSide {
  overview: RunOverview;
  /** The best prompt's evaluation, or null when the run scored none yet. */
  evaluation: {
    source: EvaluationSource;
    iteration: number;
    samples: number;
    scores: CandidateScores;
  } | null;
  /** The best prompt's text (the baseline's while nothing was kept). */
  prompt: string | null;
  /** The judge models the run's config named (`models.judge`, a panel's members), for the warning. */
  judges: string[];
}

export interface CaseComparison {
  caseId: string;
  split: string;
  a: number | null;
  b: number | null;
  /** b − a; null unless both scored the case. */
  d: number | null;
}

export interface RunComparison {
  format: 'autoresearch.compare/v1';
  a: SideSummary;
  b: SideSummary;
  cases: CaseComparison[];
  /** Over the cases both scored; null when fewer than one. */
  paired: (Interval & { wins: number; losses: number; ties: number; confidence: number }) | null;
  onlyInA: string[];
  onlyInB: string[];
  prompts: { identical: boolean; hunks: DiffHunk[] } | null;
  /** What makes the comparison weaker than a comparison inside one run. */
  caveats: string[];
}

export interface SideSummary {
  id: string;
  experiment: string | null;
  status: RunOverview['status'];
  stopReason: RunOverview['stopReason'];
  iterations: number;
  kept: number;
  baseline: { train: number | null; holdout: number | null } | null;
  best: { iteration: number; train: number | null; holdout: number | null; test?: number | null } | null;
  /** Whether `best` is the final check's fresh evaluation. */
  fresh: boolean;
  costUsd: number;
  calls: number;
  activeSeconds: number;
  simulated: string[];
  evaluation: { source: EvaluationSource; iteration: number } | null;
}

/** The interval's coverage: two-sided 95%, so each bound is a 97.5% one-sided bound. */
const CONFIDENCE = 0.95;

export function compareRuns(a: RunSide, b: RunSide): RunComparison {
  const scoredA = a.evaluation ? caseSplits(a.evaluation.scores) : new Map<string, string>();
  const scoredB = b.evaluation ? caseSplits(b.evaluation.scores) : new Map<string, string>();
  const meansA = a.evaluation ? caseMeansWithTest(a.evaluation.scores, a.evaluation.samples) : new Map();
  const meansB = b.evaluation ? caseMeansWithTest(b.evaluation.scores, b.evaluation.samples) : new Map();
  const ids = [...new Set([...scoredA.keys(), ...scoredB.keys()])];
  const cases: CaseComparison[] = ids.map((caseId) => {
    const ma = meansA.get(caseId)?.mean ?? null;
    const mb = meansB.get(caseId)?.mean ?? null;
    return {
      caseId,
      split: scoredB.get(caseId) ?? scoredA.get(caseId) ?? 'train',
      a: ma,
      b: mb,
      d: ma === null || mb === null ? null : mb - ma,
    };
  });
  const common = ids.filter((id) => scoredA.has(id) && scoredB.has(id));
  const pairs = pairCases(common, meansB, meansA);
  const interval =
    pairs.length === 0
      ? null
      : pairedInterval(
          pairs.map((p) => p.d),
          1 - (1 - CONFIDENCE) / 2,
        );
  return {
    format: 'autoresearch.compare/v1',
    a: summarise(a),
    b: summarise(b),
    cases,
    paired: interval && { ...interval, ...tallyOf(pairs), confidence: CONFIDENCE },
    onlyInA: ids.filter((id) => scoredA.has(id) && !scoredB.has(id)),
    onlyInB: ids.filter((id) => scoredB.has(id) && !scoredA.has(id)),
    prompts:
      a.prompt === null || b.prompt === null
        ? null
        : { identical: a.prompt === b.prompt, hunks: diffPrompts(a.prompt, b.prompt) },
    caveats: caveatsOf(a, b, common.length),
  };
}

function summarise(side: RunSide): SideSummary {
  const o = side.overview;
  const best = o.final?.best ?? o.best;
  return {
    id: o.id,
    experiment: o.experiment,
    status: o.status,
    stopReason: o.stopReason,
    iterations: o.iterations,
    kept: o.counts.keep,
    baseline: o.final?.baseline ?? o.baseline,
    best: best && { ...best },
    fresh: o.final !== null,
    costUsd: o.costUsd,
    calls: o.calls,
    activeSeconds: o.activeSeconds,
    simulated: [...o.simulated],
    evaluation: side.evaluation && { source: side.evaluation.source, iteration: side.evaluation.iteration },
  };
}

/** Each scored case's split, test cases included (a final check scores them). */
function caseSplits(scores: CandidateScores): Map<string, string> {
  const splits = new Map<string, string>();
  for (const c of [...scores.train.cases, ...scores.holdout.cases, ...(scores.test?.cases ?? [])])
    if (c.total !== null) splits.set(c.caseId, c.split);
  return splits;
}

function caseMeansWithTest(
  scores: CandidateScores,
  samples: number,
): Map<string, { mean: number; samples: number }> {
  const means = caseMeansOf(scores, samples);
  for (const c of scores.test?.cases ?? [])
    if (c.total !== null) means.set(c.caseId, { mean: c.total, samples });
  return means;
}

function caveatsOf(a: RunSide, b: RunSide, common: number): string[] {
  const caveats: string[] = [];
  const ea = a.overview.experiment;
  const eb = b.overview.experiment;
  if (ea !== eb) caveats.push(`the runs are of different experiments (${ea ?? '?'} and ${eb ?? '?'})`);
  if (!a.evaluation || !b.evaluation) {
    const missing = [a, b].filter((s) => !s.evaluation).map((s) => s.overview.id);
    caveats.push(`${missing.join(' and ')} scored no evaluation yet: nothing to compare case by case`);
  } else if (common === 0) {
    caveats.push('the runs scored no case in common');
  } else if (a.evaluation.source !== b.evaluation.source) {
    caveats.push(
      'one run has a final check and the other does not: a final check is a fresh evaluation, a decided score is the one the loop kept',
    );
  }
  const ja = a.judges.join(', ');
  const jb = b.judges.join(', ');
  if (ja !== jb)
    caveats.push(
      `the judges differ (${ja || 'none'} and ${jb || 'none'}): their scores are on different scales`,
    );
  const simA = a.overview.simulated.length > 0;
  const simB = b.overview.simulated.length > 0;
  if (simA !== simB)
    caveats.push('one run used the simulated provider: its figures say nothing about real models');
  return caveats;
}
