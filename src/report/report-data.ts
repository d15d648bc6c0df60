/**
 * The report's JSON model: everything the page shows, inlined into report.html and drawn by
 * its script. Derived from the run folder on every render, never read back, so it carries no
 * schema; `format` names the version for anyone who scrapes it.
 */
import type {
  ErrorKind,
  IterationStatus,
  PairedDecisionRecord,
  ScreenRecord,
  Strategy,
} from '../run/events.js';
import type { Signals } from '../run/run-state.js';
import type { PairedCase } from './artifact-schemas.js';
import type { CaseView } from './case-details.js';
import type { RunComparison } from './compare-runs.js';
import type { ChartModel, Sparkline } from './chart-geometry.js';
import type { EvalFeedback } from './eval-feedback.js';
import type { RunOverview } from './overview.js';
import type { DiffHunk, PartDiff } from './prompt-diff.js';
import type { LineageModel } from './pool-geometry.js';
import type { ReviewedMember } from './pool-view.js';
import type { FlatCheck, Trend } from './trends.js';

export const REPORT_FORMAT = 'autoresearch.report/v1';

export interface ProposalView {
  candidate: number;
  hypothesis: string | null;
  duplicate: boolean;
  train: number | null;
  holdout: number | null;
  gateFailure: string | null;
  decided: boolean;
  /** Its screen on the minibatch (docs/design/paired-acceptance.md), when it had one. */
  screen: ScreenRecord | null;
}

export interface PromptDiffView {
  /** The iteration whose prompt this one was compared with (its parent). */
  parent: number;
  /**
   * A pareto run (docs/design/pareto-search.md): the pool member compared with (a prompt of
   * iteration `parent`).
   */
  parentMember?: string;
  identical: boolean;
  added: number;
  removed: number;
  hunks: DiffHunk[];
  /**
   * Several optimised parts (docs/design/prompt-shapes.md): each part's own diff, in request order.
   */
  parts?: PartDiff[];
}

/**
 * A judge panel's evaluation (docs/design/judge-reliability.md): who sat on it and how far they
 * agreed.
 */
export interface PanelView {
  aggregate: string;
  members: string[];
  /** Krippendorff's alpha (ordinal) over every output and criterion; null when no score varied. */
  alpha: number | null;
  alphaByCriterion: Record<string, number | null>;
}

export interface IterationView {
  iteration: number;
  status: IterationStatus;
  strategy: Strategy | null;
  candidate: number | null;
  train: number | null;
  holdout: number | null;
  delta: number | null;
  incumbentBefore: number | null;
  best: number | null;
  signals: Signals;
  criteria: Record<string, number>;
  /** The decided candidate's panel agreement (journaled); null without a panel or when no score varied. */
  judgeAlpha: number | null;
  /** The shown candidate's panel, from its evaluation.json; null without one. */
  panel: PanelView | null;
  gateFailure: string | null;
  hypothesis: string | null;
  commit: string | null;
  costUsd: number;
  seconds: number;
  errorKind: ErrorKind | string | null;
  message: string | null;
  /** The decision in one sentence (decision.json), when recorded. */
  reason: string | null;
  /**
   * Paired acceptance (docs/design/paired-acceptance.md): the decision's intervals and per-case
   * tally.
   */
  paired: PairedDecisionRecord | null;
  /** The decided candidate's screen on the minibatch. */
  screen: ScreenRecord | null;
  /** Per case, the candidate against what it was compared with (decision.json); null when not recorded. */
  churn: PairedCase[] | null;
  /** The incumbent this iteration was compared with (pareto: its parent member's iteration); null for a baseline. */
  parent: number | null;
  /**
   * A pareto run (docs/design/pareto-search.md): the member(s) the decided candidate came from and
   * the one it became.
   */
  lineage?: { from: string[]; member: string | null; kind: 'mutation' | 'merge' | 'seed' };
  /** The earlier iteration whose prompt this one repeated, when it has no files of its own. */
  duplicateOf: number | null;
  proposals: ProposalView[];
  prompt: string | null;
  diff: PromptDiffView | null;
  /** Which candidate's outputs `cases` shows. */
  shownCandidate: number | null;
  cases: CaseView[];
}

/** One pareto candidate's outcome (docs/design/pareto-search.md), for the iteration's detail. */
export interface CandidateOutcomeView {
  iteration: number;
  candidate: number;
  kind: 'mutation' | 'merge';
  parents: string[];
  status: IterationStatus;
  member: string | null;
  train: number | null;
  delta: number | null;
  paired: PairedDecisionRecord | null;
  screen: ScreenRecord | null;
  /** Against the run's best, when it entered the pool: did the best move, and why. */
  best: { against: string; moved: boolean; reason: string } | null;
  hypothesis: string | null;
  message: string | null;
}

/**
 * A pareto run's pool (docs/design/pareto-search.md): its members (each with the train cases it
 * leads and its per-case scores: the heat map), the front, the best, the merges, the lineage's
 * geometry and every candidate's outcome.
 */
export interface PoolView {
  minEffect: number;
  /** The heat map's rows: train case ids. */
  cases: string[];
  members: ReviewedMember[];
  front: string[];
  best: string | null;
  merges: { attempted: number; pooled: number; best: number };
  lineage: LineageModel;
  candidates: CandidateOutcomeView[];
}

export interface TrendView extends Trend {
  spark: Sparkline;
}

export interface ReportData {
  format: typeof REPORT_FORMAT;
  generatedAt: string;
  toolVersion: string;
  /** Changes whenever the journal does; the served page polls it to know when to reload. */
  stamp: string;
  overview: RunOverview;
  chart: ChartModel;
  iterations: IterationView[];
  trends: { criteria: TrendView[]; checks: TrendView[] };
  feedback: EvalFeedback;
  flatChecks: FlatCheck[];
  bestPrompt: { iteration: number | null; text: string } | null;
  /** A pareto run's pool; null for a greedy run. */
  pool: PoolView | null;
  warnings: { iteration: number | null; message: string }[];
  problems: string[];
  /**
   * `report <run> --beside <other>`: this run (A) compared with another (B), as `compare` sees
   * them (compare-runs.ts); absent in a run's own report.html.
   */
  beside?: RunComparison;
}
