/**
 * Run folder → report model, pure: the journal is folded into run state, and each iteration
 * is joined with its artifacts (proposals, decision, prompt diff against its parent, each
 * case's evidence). Nothing here reads files or the clock.
 */
import { reduceRun } from '../run/reducer.js';
import type { IterationRecord } from '../run/run-state.js';
import { type CandidateScreen, parseDecision, parseMutation } from './artifact-schemas.js';
import { buildCaseViews, type CaseSplit, readCaseSplits, readPanel } from './case-details.js';
import { buildChart, buildSparkline, type ChartInput } from './chart-geometry.js';
import { gatherEvalFeedback } from './eval-feedback.js';
import { collectIterationEvents, meanCriteria, type IterationEvents } from './iteration-events.js';
import { findParents } from './lineage.js';
import { buildOverview } from './overview.js';
import { buildLineage } from './pool-geometry.js';
import { minEffectOf, type PoolReview, reviewPool } from './pool-view.js';
import { countChanges, diffPromptParts, diffPrompts } from './prompt-diff.js';
import {
  REPORT_FORMAT,
  type IterationView,
  type PoolView,
  type ProposalView,
  type PromptDiffView,
  type ReportData,
  type TrendView,
} from './report-data.js';
import type { CandidateFolder, IterationFolder, RunFolder } from './run-folder.js';
import { buildCheckTrends, buildCriteriaTrends, findFlatChecks, type Trend } from './trends.js';

export interface BuildContext {
  now: Date;
  toolVersion: string;
}

export function buildReportData(folder: RunFolder, context: BuildContext): ReportData {
  const state = reduceRun(folder.events);
  const overview = buildOverview(state, {
    id: folder.id,
    liveLock: folder.liveLock,
    experiment: folder.manifest?.experiment.name ?? null,
    from: folder.manifest?.from,
  });
  const eventsByIteration = collectIterationEvents(folder.events);
  const partNames = Object.keys(folder.manifest?.experiment.parts ?? {});
  const folders = new Map(folder.iterations.map((i) => [i.iteration, i]));
  const promptOf = (record: IterationRecord | undefined): string | null =>
    record ? (shownCandidate(folders.get(record.iteration), record.candidate)?.prompt ?? null) : null;
  const records = new Map(state.iterations.map((r) => [r.iteration, r]));

  const iterations: IterationView[] = [];
  const chartInputs: ChartInput[] = [];
  const parents = findParents(state.iterations);
  // A pareto run (docs/design/pareto-search.md): a candidate's parent is the pool member it was
  // made from.
  const pool = state.pool === null ? null : reviewPool(state.pool, minEffectOf(folder.manifest?.config));
  const memberPrompt = (id: string | undefined): { iteration: number; text: string | null } | null => {
    const member = pool?.members.find((m) => m.id === id);
    if (!member) return null;
    const files = folders.get(member.iteration)?.candidates.find((c) => c.candidate === member.candidate);
    return { iteration: member.iteration, text: files?.prompt ?? null };
  };
  let incumbent: IterationRecord | null = null;
  // An iteration without an evaluation of its own (an error) shows the splits last recorded.
  let knownSplits: ReadonlyMap<string, CaseSplit> = new Map();
  for (const record of state.iterations) {
    const lineage = pool === null ? undefined : lineageOf(pool, record);
    const parentMember = memberPrompt(lineage?.from[0]);
    const parentNumber =
      pool === null ? (parents.get(record.iteration) ?? null) : (parentMember?.iteration ?? null);
    const parent = parentNumber === null ? null : (records.get(parentNumber) ?? null);
    const files = folders.get(record.iteration);
    const shown = shownCandidate(files, record.candidate);
    const ownSplits = readCaseSplits(shown?.evaluation);
    if (ownSplits.size > 0) knownSplits = ownSplits;
    const events = eventsByIteration.get(record.iteration) ?? { proposals: [], evaluations: [] };
    const decision = parseDecision(files?.decision ?? null);
    const duplicateOf = shown ? null : findSamePrompt(state.iterations, record);
    const prompt = shown?.prompt ?? promptOf(duplicateOf === null ? undefined : records.get(duplicateOf));
    const parentPrompt = parentMember ? parentMember.text : promptOf(parent ?? undefined);
    iterations.push({
      iteration: record.iteration,
      status: record.status,
      strategy: record.strategy,
      candidate: record.candidate,
      train: record.train,
      holdout: record.holdout,
      delta: record.delta,
      incumbentBefore: record.incumbentBefore,
      best: record.best,
      signals: record.signals,
      criteria: meanCriteria(events.evaluations.filter((e) => e.candidate === record.candidate)),
      judgeAlpha: record.judgeAlpha ?? null,
      panel: readPanel(shown?.evaluation),
      gateFailure: record.gateFailure,
      hypothesis: record.hypothesis,
      commit: record.commit,
      costUsd: record.costUsd,
      seconds: record.seconds,
      errorKind: record.errorKind ?? decision?.errorKind ?? null,
      message: record.message ?? decision?.message ?? null,
      reason: decision?.reason ?? null,
      paired: record.paired,
      screen: record.screen,
      churn: decision?.cases ?? null,
      parent: parent?.iteration ?? null,
      ...(lineage === undefined ? {} : { lineage }),
      duplicateOf,
      proposals: buildProposals(events, files, record.candidate, decision?.screens ?? []),
      prompt,
      diff:
        parent && prompt !== null && parentPrompt !== null
          ? buildDiff(parent.iteration, parentPrompt, prompt, partNames, lineage?.from[0])
          : null,
      shownCandidate: shown?.candidate ?? null,
      cases: shown ? buildCaseViews(shown, knownSplits) : [],
    });
    if (record.status === 'baseline' || record.status === 'keep') incumbent = record;
    chartInputs.push({
      iteration: record.iteration,
      status: record.status,
      train: record.train,
      best: record.best,
      bestHoldout: incumbent?.holdout ?? null,
      // A pareto candidate's interval is against its parent member, so it is placed at that member's score.
      interval: intervalOf(record, pool === null ? record.incumbentBefore : parentTrain(pool, lineage)),
    });
  }

  const incumbentRecord = state.incumbent ? records.get(state.incumbent.iteration) : undefined;
  const bestText = folder.bestPrompt ?? promptOf(incumbentRecord);
  const decidedChecks = state.iterations.map(
    (r) => shownCandidate(folders.get(r.iteration), r.candidate)?.checks ?? null,
  );
  return {
    format: REPORT_FORMAT,
    generatedAt: context.now.toISOString(),
    toolVersion: context.toolVersion,
    stamp: journalStamp(folder.events.length, state.lastEventAt, folder.liveLock),
    overview,
    chart: buildChart(chartInputs, overview.noiseMargin?.train ?? null),
    iterations,
    trends: {
      criteria: withSparklines(buildCriteriaTrends(iterations.map((i) => i.criteria))),
      checks: withSparklines(buildCheckTrends(decidedChecks)),
    },
    feedback: gatherEvalFeedback(folder.iterations),
    flatChecks: findFlatChecks(folder.iterations),
    bestPrompt: bestText === null ? null : { iteration: state.incumbent?.iteration ?? null, text: bestText },
    pool: pool === null ? null : buildPoolView(pool),
    warnings: overview.warnings,
    problems: [...folder.problems],
  };
}

/** Identifies what the page shows: equal stamps mean nothing new was journaled and the run is as live as it was. */
export function journalStamp(eventCount: number, lastEventAt: string | null, liveLock: boolean): string {
  return `${eventCount}@${lastEventAt ?? '-'}${liveLock ? '+live' : ''}`;
}

/** The candidate whose files stand for the iteration: the decided one, else the first with files. */
export function shownCandidate(
  files: IterationFolder | undefined,
  decided: number | null,
): CandidateFolder | null {
  if (!files) return null;
  return (
    files.candidates.find((c) => c.candidate === decided) ??
    files.candidates.find((c) => c.prompt !== null || c.outputs.length > 0) ??
    null
  );
}

/** An earlier iteration that tried the very prompt this one repeated (a duplicate keeps no files). */
function findSamePrompt(iterations: readonly IterationRecord[], record: IterationRecord): number | null {
  if (record.promptSha256 === null) return null;
  const same = iterations.find(
    (r) => r.iteration !== record.iteration && r.promptSha256 === record.promptSha256,
  );
  return same?.iteration ?? null;
}

/** A paired decision's train interval, placed on the score scale at the score (`base`) it was compared with. */
function intervalOf(record: IterationRecord, base: number | null): ChartInput['interval'] {
  const train = record.paired?.train;
  if (!train || train.lo === null || train.hi === null || base === null) return null;
  return { base, lo: train.lo, hi: train.hi, mean: train.mean };
}

/** The train score of the member a pareto candidate came from (its first parent). */
function parentTrain(pool: PoolReview, lineage: IterationView['lineage']): number | null {
  const parent = lineage?.from[0];
  return pool.members.find((m) => m.id === parent)?.train ?? null;
}

function buildProposals(
  events: IterationEvents,
  files: IterationFolder | undefined,
  decided: number | null,
  screens: readonly CandidateScreen[],
): ProposalView[] {
  const proposals =
    events.proposals.length > 0
      ? events.proposals.map((p) => ({
          candidate: p.candidate,
          hypothesis: p.hypothesis as string | null,
          duplicate: p.duplicate,
        }))
      : (parseMutation(files?.mutation ?? null) ?? []);
  return proposals.map((p) => {
    const evaluations = events.evaluations.filter((e) => e.candidate === p.candidate);
    return {
      candidate: p.candidate,
      hypothesis: p.hypothesis,
      duplicate: p.duplicate,
      train: mean(evaluations.map((e) => e.train)),
      holdout: mean(evaluations.map((e) => e.holdout)),
      gateFailure: evaluations.find((e) => e.gateFailure !== null)?.gateFailure ?? null,
      decided: p.candidate === decided,
      screen: screens.find((s) => s.candidate === p.candidate)?.screen ?? null,
    };
  });
}

/**
 * Several optimised parts (`partNames` from the manifest): the diff of each part too. A pareto
 * candidate's diff is against the member it was made from (`parentMember`).
 */
function buildDiff(
  parent: number,
  before: string,
  after: string,
  partNames: string[],
  parentMember?: string,
): PromptDiffView {
  const hunks = diffPrompts(before, after);
  const whole = {
    parent,
    ...(parentMember === undefined ? {} : { parentMember }),
    identical: hunks.length === 0,
    ...countChanges(hunks),
    hunks,
  };
  return partNames.length > 1 ? { ...whole, parts: diffPromptParts(before, after, partNames) } : whole;
}

/** The member(s) an iteration's decided candidate came from and the one it became; the baseline is p0. */
function lineageOf(pool: PoolReview, record: IterationRecord): IterationView['lineage'] {
  const member = pool.members.find(
    (m) => m.iteration === record.iteration && m.candidate === record.candidate,
  );
  const decision = pool.decisions.find(
    (d) => d.iteration === record.iteration && d.candidate === record.candidate,
  );
  if (decision) return { from: [...decision.parents], member: decision.member, kind: decision.kind };
  if (member) return { from: [...member.parents], member: member.id, kind: member.kind };
  return undefined;
}

function buildPoolView(pool: PoolReview): PoolView {
  return {
    minEffect: pool.minEffect,
    cases: pool.cases,
    members: pool.members,
    front: pool.front,
    best: pool.best,
    merges: pool.merges,
    lineage: buildLineage(pool.members),
    candidates: pool.decisions.map((d) => ({
      iteration: d.iteration,
      candidate: d.candidate,
      kind: d.kind,
      parents: d.parents,
      status: d.status,
      member: d.member,
      train: d.train,
      delta: d.delta,
      paired: d.paired,
      screen: d.screen,
      best: d.best && { against: d.best.against, moved: d.best.moved, reason: d.best.reason },
      hypothesis: d.hypothesis,
      message: d.errorKind ? `${d.errorKind}${d.message ? `: ${d.message}` : ''}` : d.message,
    })),
  };
}

function withSparklines(trends: Trend[]): TrendView[] {
  return trends.map((trend) => ({ ...trend, spark: buildSparkline(trend.values, trend.min, trend.max) }));
}

function mean(values: readonly (number | null)[]): number | null {
  const present = values.filter((v): v is number => v !== null);
  return present.length === 0 ? null : present.reduce((a, b) => a + b, 0) / present.length;
}
