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
import { countChanges, diffPromptParts, diffPrompts } from './prompt-diff.js';
import {
  REPORT_FORMAT,
  type IterationView,
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
  let incumbent: IterationRecord | null = null;
  // An iteration without an evaluation of its own (an error) shows the splits last recorded.
  let knownSplits: ReadonlyMap<string, CaseSplit> = new Map();
  for (const record of state.iterations) {
    const parentNumber = parents.get(record.iteration) ?? null;
    const parent = parentNumber === null ? null : (records.get(parentNumber) ?? null);
    const files = folders.get(record.iteration);
    const shown = shownCandidate(files, record.candidate);
    const ownSplits = readCaseSplits(shown?.evaluation);
    if (ownSplits.size > 0) knownSplits = ownSplits;
    const events = eventsByIteration.get(record.iteration) ?? { proposals: [], evaluations: [] };
    const decision = parseDecision(files?.decision ?? null);
    const duplicateOf = shown ? null : findSamePrompt(state.iterations, record);
    const prompt = shown?.prompt ?? promptOf(duplicateOf === null ? undefined : records.get(duplicateOf));
    const parentPrompt = promptOf(parent ?? undefined);
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
      duplicateOf,
      proposals: buildProposals(events, files, record.candidate, decision?.screens ?? []),
      prompt,
      diff:
        parent && prompt !== null && parentPrompt !== null
          ? buildDiff(parent.iteration, parentPrompt, prompt, partNames)
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
      interval: intervalOf(record),
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

/** A paired decision's train interval, placed on the score scale at the incumbent it was compared with. */
function intervalOf(record: IterationRecord): ChartInput['interval'] {
  const train = record.paired?.train;
  if (!train || train.lo === null || train.hi === null || record.incumbentBefore === null) return null;
  return { base: record.incumbentBefore, lo: train.lo, hi: train.hi, mean: train.mean };
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

/** Several optimised parts (`partNames` from the manifest): the diff of each part too. */
function buildDiff(parent: number, before: string, after: string, partNames: string[]): PromptDiffView {
  const hunks = diffPrompts(before, after);
  const whole = { parent, identical: hunks.length === 0, ...countChanges(hunks), hunks };
  return partNames.length > 1 ? { ...whole, parts: diffPromptParts(before, after, partNames) } : whole;
}

function withSparklines(trends: Trend[]): TrendView[] {
  return trends.map((trend) => ({ ...trend, spark: buildSparkline(trend.values, trend.min, trend.max) }));
}

function mean(values: readonly (number | null)[]): number | null {
  const present = values.filter((v): v is number => v !== null);
  return present.length === 0 ? null : present.reduce((a, b) => a + b, 0) / present.length;
}
