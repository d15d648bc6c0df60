/**
 * One iteration's evaluation and decision under paired acceptance
 * (docs/design/paired-acceptance.md):
 *
 *   screen each proposal on a seeded minibatch ─▶ the rest only for a mean difference > 0
 *   ─▶ the best survivor's first look ─▶ keep | discard | retest (both sides get more
 *   samples) ─▶ the last look ─▶ keep | discard | inconclusive
 *
 * The incumbent's per-case scores come from its own record; it is re-evaluated only for a
 * retest. Every figure a decision used goes into decision.json, and its summary into the
 * `iteration_finished` event.
 */
import { join } from 'node:path';
import type { CandidateScores } from '../evaluate/candidate-result.js';
import { standingOf } from '../evaluate/candidate-result.js';
import type { CandidateOutcome, EvaluatedCandidate } from '../evaluate/evaluate-types.js';
import { callsOnCases } from '../experiment/count-calls.js';
import type { Screening } from '../experiment/iteration-plan.js';
import type { Case } from '../experiment/types.js';
import type { PairedDetail } from '../run/decision-record.js';
import type { IterationStatus, PairedDecisionRecord, PairedInterval, ScreenRecord } from '../run/events.js';
import { candidatePaths, candidatePathsAt, iterationPaths } from '../run/paths.js';
import { signed } from './decide.js';
import { evaluate } from '../evaluate/evaluate.js';
import { type CandidateSlot, candidateDeps, candidateRequest } from './candidate-request.js';
import type { IncumbentView } from './incumbent.js';
import type { LoopRun } from './loop-deps.js';
import {
  type CaseDifference,
  type CaseMeans,
  decidePaired,
  groupedInterval,
  lookConfidence,
  pairCases,
  passesScreen,
  poolCaseMeans,
} from './paired.js';
import type { Proposal } from './propose.js';
import { candidateRetestBase, incumbentRetestBase, sampleRange } from './retest-samples.js';

/** Differences this small are ties in the per-case tally. */
const TIE = 1e-9;

export interface PairedCandidate {
  proposal: Proposal;
  outcome: EvaluatedCandidate;
  screen?: ScreenRecord;
}

export type PairedResult =
  | { ok: false; failure: Extract<CandidateOutcome, { ok: false }> }
  | {
      ok: true;
      status: Extract<
        IterationStatus,
        'keep' | 'discard' | 'gate_fail' | 'holdout_fail' | 'inconclusive' | 'screened_out'
      >;
      reason: string;
      chosen: PairedCandidate;
      /** Model calls saved by screening in this iteration, over every proposal. */
      callsSaved: number;
      /** Absent for a screened-out iteration: no decision was taken on the whole set. */
      paired?: PairedDecisionRecord;
      /** What decision.json records beyond status and reason. */
      detail: PairedDetail;
    };

export interface PairedIterationInput {
  iteration: number;
  incumbent: IncumbentView;
  proposals: readonly Proposal[];
  /** The iteration's screening (src/experiment/iteration-plan.ts), or null: screening is off. */
  screening: Screening | null;
  /**
   * Where the incumbent's retest goes (default: the iteration's `incumbent-retest/`). The pareto
   * search decides each candidate against its own parent, concurrently: each gets its own folder.
   */
  incumbentRetestDir?: string;
}

export async function evaluateAndDecidePaired(
  deps: LoopRun,
  input: PairedIterationInput,
): Promise<PairedResult> {
  const { experiment } = deps;
  const { search } = experiment.config;
  const { iteration, incumbent } = input;
  // The loop's cases only: the run hands the loop an experiment without the sealed test cases.
  const { cases } = experiment;
  const train = cases.filter((c) => c.split === 'train');
  const holdout = cases.filter((c) => c.split === 'holdout');
  const incumbentMeans = caseMeansOf(incumbent.scores, incumbent.evaluation.samples);

  // Any eligible candidate beats an ineligible incumbent: no screen may turn one away then.
  const screening = incumbent.eligible ? input.screening : null;
  const minibatch = screening?.minibatch ?? null;
  const rest = screening?.rest ?? cases;
  const restCalls = sumCalls(callsOnCases(experiment, rest, search.samples));
  const batchIds = (minibatch ?? []).map((c) => c.id);

  const evaluated = await Promise.all(
    input.proposals.map(async (proposal) => {
      const request = candidateRequest(deps, {
        iteration,
        candidate: proposal.candidate,
        prompt: proposal.prompt,
        sampleBase: 0,
        ...(minibatch
          ? {
              cases: minibatch,
              screen: {
                rest,
                proceed: (first: EvaluatedCandidate) =>
                  passesScreen(differences(batchIds, first.scores, first.evaluation.samples, incumbentMeans)),
              },
            }
          : {}),
      });
      return { proposal, result: await evaluate(request, candidateDeps(deps, iteration)) };
    }),
  );

  const candidates: PairedCandidate[] = [];
  for (const { proposal, result } of evaluated) {
    if (!result.outcome.ok) continue;
    const first = result.firstStage;
    const screen: ScreenRecord | undefined =
      minibatch && first
        ? {
            cases: batchIds,
            mean: meanOf(differences(batchIds, first.scores, first.evaluation.samples, incumbentMeans)),
            passed: result.proceeded,
            callsSaved: result.proceeded ? 0 : restCalls,
          }
        : undefined;
    candidates.push({ proposal, outcome: result.outcome, ...(screen ? { screen } : {}) });
  }
  if (candidates.length === 0) {
    const failure = evaluated.find((e) => !e.result.outcome.ok)?.result.outcome;
    if (!failure || failure.ok) throw new Error('evaluateAndDecidePaired: no candidate and no failure');
    return { ok: false, failure };
  }

  const survivors = candidates.filter((c) => c.screen === undefined || c.screen.passed);
  const callsSaved = candidates.reduce((sum, c) => sum + (c.screen?.callsSaved ?? 0), 0);
  const screenDetail = (c: PairedCandidate) => ({
    candidate: c.proposal.candidate,
    hypothesis: c.proposal.hypothesis,
    ...(c.screen ? { screen: c.screen } : {}),
  });
  if (survivors.length === 0) {
    const chosen = bestBy(candidates, (c) => c.screen?.mean ?? Number.NEGATIVE_INFINITY);
    const screen = chosen.screen as ScreenRecord;
    return {
      ok: true,
      status: 'screened_out',
      callsSaved,
      reason: `screened out: mean difference ${signed(screen.mean)} over a minibatch of ${screen.cases.length} train cases is not above 0; the rest (${screen.callsSaved} calls) not evaluated`,
      chosen,
      detail: { acceptance: 'paired', minibatch: batchIds, candidates: candidates.map(screenDetail) },
    };
  }

  const confidence = lookConfidence(search.confidence, search.retest);
  const trainIds = train.map((c) => c.id);
  const holdoutIds = holdout.map((c) => c.id);
  // Groups of cases (a case's `group`, or the `search.group_by` var): the interval on group means.
  const groupOf = new Map(cases.map((c) => [c.id, c.group]));
  const grouped = (pairs: readonly CaseDifference[]) =>
    groupedInterval(
      pairs.map((p) => ({ d: p.d, group: groupOf.get(p.caseId) })),
      confidence,
    );
  const look = (candidate: CaseMeans, against: CaseMeans, lastLook: boolean, eligible: boolean) => {
    const trainPairs = pairCases(trainIds, candidate, against);
    const holdoutPairs = pairCases(holdoutIds, candidate, against);
    const trainInterval = grouped(trainPairs);
    const holdoutInterval = holdoutIds.length > 0 ? grouped(holdoutPairs) : null;
    const decision = decidePaired({
      train: trainInterval,
      holdout: holdoutInterval,
      candidateEligible: eligible,
      incumbentEligible: incumbent.eligible,
      minEffect: search.min_effect,
      lastLook,
    });
    return { decision, trainPairs, holdoutPairs, trainInterval, holdoutInterval };
  };

  // The survivor with the best first look leads; the others are recorded beside it.
  const firstLooks = survivors.map((c) => ({
    candidate: c,
    means: caseMeansOf(c.outcome.scores, c.outcome.evaluation.samples),
  }));
  const lead = bestBy(firstLooks, (f) =>
    standingOf(f.candidate.outcome.scores).eligible
      ? grouped(pairCases(trainIds, f.means, incumbentMeans)).mean
      : Number.NEGATIVE_INFINITY,
  );
  const chosen = lead.candidate;
  let looks = 1;
  const eligible = standingOf(chosen.outcome.scores).eligible;
  let current = look(lead.means, incumbentMeans, search.retest === 0, eligible);
  let retestNote = '';
  // Both sides' first looks rest on their own evaluations, samples [0, samples).
  const sampleIndices = {
    candidate: sampleRange(0, search.samples),
    incumbent: sampleRange(0, search.samples),
  };
  if (current.decision.status === 'retest') {
    looks = 2;
    const retest = await retestBoth(deps, {
      iteration,
      chosen,
      incumbent,
      cases,
      incumbentDir:
        input.incumbentRetestDir ?? join(iterationPaths(deps.runDir, iteration).dir, 'incumbent-retest'),
    });
    sampleIndices.candidate.push(...retest.sampleIndices.candidate);
    sampleIndices.incumbent.push(...retest.sampleIndices.incumbent);
    if (retest.ok) {
      current = look(
        poolCaseMeans(lead.means, retest.candidate),
        poolCaseMeans(incumbentMeans, retest.incumbent),
        true,
        // A gate failure on a retest sample counts like one on the first.
        eligible && retest.candidateEligible,
      );
    } else {
      retestNote = ` (the retest failed: ${retest.message})`;
      current = {
        ...current,
        decision: { status: 'inconclusive', reason: `${current.decision.reason}${retestNote}` },
      };
    }
  }
  const status = current.decision.status;
  if (status === 'retest') throw new Error('evaluateAndDecidePaired: a last look cannot ask for a retest');

  const tally = tallyOf(current.trainPairs);
  const paired: PairedDecisionRecord = {
    confidence,
    looks,
    train: toRecord(current.trainInterval),
    holdout: current.holdoutInterval ? toRecord(current.holdoutInterval) : null,
    ...tally,
  };
  function groupField(p: CaseDifference): { group?: string } {
    const group = groupOf.get(p.caseId);
    return group === undefined ? {} : { group };
  }
  return {
    ok: true,
    status,
    callsSaved,
    reason: current.decision.reason,
    chosen,
    paired,
    detail: {
      acceptance: 'paired',
      minEffect: search.min_effect,
      paired: {
        ...paired,
        sampleIndices,
        cases: [
          ...current.trainPairs.map((p) => ({ split: 'train' as const, ...p, ...groupField(p) })),
          ...current.holdoutPairs.map((p) => ({ split: 'holdout' as const, ...p, ...groupField(p) })),
        ],
      },
      ...(minibatch ? { minibatch: batchIds } : {}),
      candidates: candidates.map(screenDetail),
    },
  };
}

/** Both sides once more with `search.retest` fresh samples per case, in folders of their own. */
async function retestBoth(
  deps: LoopRun,
  input: {
    iteration: number;
    chosen: PairedCandidate;
    incumbent: IncumbentView;
    cases: readonly Case[];
    incumbentDir: string;
  },
): Promise<
  (
    | { ok: true; candidate: CaseMeans; candidateEligible: boolean; incumbent: CaseMeans }
    | { ok: false; message: string }
  ) & { sampleIndices: { candidate: number[]; incumbent: number[] } }
> {
  const { search } = deps.experiment.config;
  const { iteration, chosen, incumbent, cases, incumbentDir } = input;
  await deps.recorder.emit({
    type: 'phase',
    iteration,
    phase: 'retesting',
    candidate: chosen.proposal.candidate,
  });
  const common = { iteration, samples: search.retest, cases };
  // Fresh draws on both sides (retest-samples.ts): the incumbent's block is this decision's alone,
  // so a parent retested again in a later iteration is not answered by its earlier retest's cache.
  const candidateBase = candidateRetestBase(search);
  const incumbentBase = incumbentRetestBase(search, iteration, chosen.proposal.candidate);
  const sampleIndices = {
    candidate: sampleRange(candidateBase, search.retest),
    incumbent: sampleRange(incumbentBase, search.retest),
  };
  const retest = async (slot: CandidateSlot) =>
    (await evaluate(candidateRequest(deps, slot), candidateDeps(deps, iteration))).outcome;
  const [candidate, again] = await Promise.all([
    retest({
      ...common,
      sampleBase: candidateBase,
      candidate: chosen.proposal.candidate,
      prompt: chosen.proposal.prompt,
      repeat: 1,
      paths: candidatePathsAt(
        join(candidatePaths(deps.runDir, iteration, chosen.proposal.candidate).dir, 'retest'),
      ),
    }),
    retest({
      ...common,
      sampleBase: incumbentBase,
      candidate: incumbent.candidate,
      prompt: incumbent.prompt,
      journal: false,
      paths: candidatePathsAt(incumbentDir),
    }),
  ]);
  if (!candidate.ok) return { ok: false, message: candidate.message, sampleIndices };
  if (!again.ok) return { ok: false, message: `the incumbent's retest: ${again.message}`, sampleIndices };
  return {
    ok: true,
    sampleIndices,
    candidate: caseMeansOf(candidate.scores, candidate.evaluation.samples),
    candidateEligible: standingOf(candidate.scores).eligible,
    incumbent: caseMeansOf(again.scores, again.evaluation.samples),
  };
}

/** Each scored case's total (already the mean over its samples), with the sample count behind it. */
export function caseMeansOf(
  scores: CandidateScores,
  samples: number,
): Map<string, { mean: number; samples: number }> {
  const means = new Map<string, { mean: number; samples: number }>();
  for (const c of [...scores.train.cases, ...scores.holdout.cases])
    if (c.total !== null) means.set(c.caseId, { mean: c.total, samples });
  return means;
}

function differences(
  ids: readonly string[],
  scores: CandidateScores,
  samples: number,
  against: CaseMeans,
): number[] {
  return pairCases(ids, caseMeansOf(scores, samples), against).map((p) => p.d);
}

export function tallyOf(pairs: readonly CaseDifference[]): { wins: number; losses: number; ties: number } {
  let wins = 0;
  let losses = 0;
  for (const p of pairs) {
    if (p.d > TIE) wins++;
    else if (p.d < -TIE) losses++;
  }
  return { wins, losses, ties: pairs.length - wins - losses };
}

export function toRecord(interval: PairedInterval): PairedInterval {
  return {
    n: interval.n,
    mean: interval.mean,
    sd: interval.sd,
    lo: interval.lo,
    hi: interval.hi,
    ...(interval.groups === undefined ? {} : { groups: interval.groups }),
  };
}

function sumCalls(counts: Record<string, number>): number {
  return Object.values(counts).reduce((sum, n) => sum + n, 0);
}

function meanOf(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((sum, v) => sum + v, 0) / values.length;
}

/** The first item with the highest key (earlier proposals win ties). */
function bestBy<T>(items: readonly T[], key: (item: T) => number): T {
  let best = items[0] as T;
  let bestKey = key(best);
  for (const item of items.slice(1)) {
    const k = key(item);
    if (k > bestKey) {
      best = item;
      bestKey = k;
    }
  }
  return best;
}
