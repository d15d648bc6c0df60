/**
 * Tolerant readers for an iteration's artifacts. The strict shapes belong to their writers
 * (checks, judge, grader, loop); review only needs to show what is there, so each reader
 * accepts the current shape and the obvious variants, and returns null for anything else.
 * decision.json and mutation.json are read with their writers' own schemas
 * (src/run/decision-record.ts, src/run/mutation-record.ts) first, and with the older, looser
 * shapes only when those do not fit.
 */
import * as z from 'zod';
import { CheckOutcome, ChecksFile } from '../checks/check-result.js';
import type { JudgeScoresFile as JudgeScoresShape } from '../judge/judge-scores.js';
import { ChecklistAnswers } from '../scoring/types.js';
import { GradedExpectation, GradingFile } from '../protocol/grading.js';
import { KnownDecision, PairedCase, PairedGreedyDecision, ParetoDecision } from '../run/decision-record.js';
import { ScreenRecord } from '../run/events.js';
import { KnownMutation, proposalsOf } from '../run/mutation-record.js';

export interface SampleChecks {
  caseId: string;
  sample: number;
  outcomes: CheckOutcome[];
}

const FlatOutcome = CheckOutcome.extend({ caseId: z.string(), sample: z.number().int().min(0) });

/** `checks.json`: `{results: [{caseId, sample, outcomes}]}`, or a flat list of outcomes with caseId/sample. */
export function parseChecks(value: unknown): SampleChecks[] | null {
  const nested = ChecksFile.safeParse(value);
  if (nested.success) return nested.data.results;
  const list = Array.isArray(value) ? value : (value as { results?: unknown } | null)?.results;
  const flat = z.array(FlatOutcome).safeParse(list);
  if (!flat.success) return null;
  const groups = new Map<string, SampleChecks>();
  for (const { caseId, sample, ...outcome } of flat.data) {
    const key = `${caseId}\u0000${sample}`;
    const group = groups.get(key) ?? { caseId, sample, outcomes: [] };
    group.outcomes.push(outcome);
    groups.set(key, group);
  }
  return [...groups.values()];
}

export interface MapEntry {
  caseId: string;
  sample: number;
}

const MapTarget = z.object({
  case_id: z.string().optional(),
  caseId: z.string().optional(),
  sample: z.number().int().min(0),
});
const MapList = z.array(MapTarget.extend({ file: z.string() }));
const MapRecord = z.record(z.string(), MapTarget);

function toEntry(target: z.infer<typeof MapTarget>): MapEntry | null {
  const caseId = target.case_id ?? target.caseId;
  return caseId === undefined ? null : { caseId, sample: target.sample };
}

/** `judge-map.json`: a list of `{file, case_id, sample}`, or an object keyed by file. */
export function parseJudgeMap(value: unknown): Map<string, MapEntry> | null {
  const list = MapList.safeParse(value);
  const pairs: [string, z.infer<typeof MapTarget>][] | null = list.success
    ? list.data.map((entry) => [entry.file, entry])
    : null;
  const record = pairs === null ? MapRecord.safeParse(value) : null;
  const all = pairs ?? (record?.success ? Object.entries(record.data) : null);
  if (all === null) return null;
  const map = new Map<string, MapEntry>();
  for (const [file, target] of all) {
    const entry = toEntry(target);
    if (entry === null) return null;
    map.set(file, entry);
  }
  return map;
}

const CriterionScores = z.record(z.string(), z.number());

const JudgeScoresFile = z.object({
  quality_score: z.number(),
  per_output: z.array(
    z.object({
      file: z.string(),
      criteria_scores: CriterionScores,
      average: z.number(),
      reasoning: z.string(),
      samples: z.array(z.record(z.string(), z.number().int())).optional(),
      items: ChecklistAnswers.optional(),
    }),
  ),
  criteria_averages: CriterionScores,
}) satisfies z.ZodType<JudgeScoresShape>;

export type JudgeScores = z.infer<typeof JudgeScoresFile>;

export function parseJudgeScores(value: unknown): JudgeScores | null {
  const parsed = JudgeScoresFile.safeParse(value);
  return parsed.success ? parsed.data : null;
}

const ReviewedGrading = GradingFile.extend({
  expectations: z.array(GradedExpectation.extend({ flag: z.string().optional() })),
});
export type ReviewedGrading = z.infer<typeof ReviewedGrading>;

/** `grading/<case-id>.json` as the runner left it (verified, with flags on unverifiable PASSes). */
export function parseGrading(value: unknown): ReviewedGrading | null {
  const parsed = ReviewedGrading.safeParse(value);
  return parsed.success ? parsed.data : null;
}

const Margin = z.union([
  z.number().transform((n) => ({ train: n, holdout: n as number | null })),
  z.object({ train: z.number(), holdout: z.number().nullable().optional() }).transform((m) => ({
    train: m.train,
    holdout: m.holdout ?? null,
  })),
]);

export type { PairedCase };

const CandidateScreen = z.object({
  candidate: z.number().int().min(0),
  screen: ScreenRecord,
});
export type CandidateScreen = z.infer<typeof CandidateScreen>;

const Decision = z.looseObject({
  status: z.string().optional(),
  reason: z.string().optional(),
  margin: Margin.optional().catch(undefined),
  errorKind: z.string().optional(),
  kind: z.string().optional(),
  message: z.string().optional(),
  paired: z
    .looseObject({ cases: z.array(PairedCase) })
    .optional()
    .catch(undefined),
  candidates: z.array(z.unknown()).optional().catch(undefined),
  /**
   * pareto (docs/design/pareto-search.md): the candidate the iteration's status is about; its own paired detail sits
   * in `candidates`.
   */
  candidate: z.number().int().min(0).optional().catch(undefined),
});

/** A pareto decision's entry per candidate: the paired detail of its decision against its parent. */
const ParetoCandidate = z.looseObject({
  candidate: z.number().int().min(0),
  detail: z.looseObject({ paired: z.looseObject({ cases: z.array(PairedCase) }) }),
});

export interface DecisionNote {
  reason: string | null;
  margin: { train: number; holdout: number | null } | null;
  errorKind: string | null;
  message: string | null;
  /** A paired decision's per-case differences; null for a version-1 (margin) decision. */
  cases: PairedCase[] | null;
  /** Each proposal's screen on the minibatch, for those that had one. */
  screens: CandidateScreen[];
}

/** `decision.json`: only the parts a person reads (why, against which margin or per case, what failed). */
export function parseDecision(value: unknown): DecisionNote | null {
  const current = KnownDecision.safeParse(value);
  return current.success ? noteOf(current.data) : parseOlderDecision(value);
}

/** A decision in the shape this version writes. */
function noteOf(d: KnownDecision): DecisionNote {
  const candidates: readonly unknown[] = 'candidates' in d ? d.candidates : [];
  return {
    reason: 'reason' in d ? d.reason : null,
    margin: 'margin' in d ? d.margin : null,
    errorKind: 'errorKind' in d ? (d.errorKind ?? null) : null,
    message: 'message' in d ? d.message : null,
    cases: casesOf(d),
    screens: candidates.flatMap((c) => {
      const screen = CandidateScreen.safeParse(c);
      return screen.success ? [screen.data] : [];
    }),
  };
}

/** Greedy: the decision's own; pareto: those of the candidate the status is about, against its parent. */
function casesOf(d: KnownDecision): PairedCase[] | null {
  const pareto = ParetoDecision.safeParse(d);
  if (pareto.success)
    return (
      pareto.data.candidates.find((c) => c.candidate === pareto.data.candidate)?.detail?.paired?.cases ?? null
    );
  const greedy = PairedGreedyDecision.safeParse(d);
  return greedy.success ? (greedy.data.paired?.cases ?? null) : null;
}

/** decision.json as earlier versions (and hand-made fixtures) wrote it, or another search's own (its status and reason). */
function parseOlderDecision(value: unknown): DecisionNote | null {
  const parsed = Decision.safeParse(value);
  if (!parsed.success) return null;
  const d = parsed.data;
  return {
    reason: d.reason ?? null,
    margin: d.margin ?? null,
    errorKind: d.errorKind ?? d.kind ?? null,
    message: d.message ?? null,
    cases: d.paired?.cases ?? paretoCases(d.candidates, d.candidate),
    screens: (d.candidates ?? []).flatMap((c) => {
      const screen = CandidateScreen.safeParse(c);
      return screen.success ? [screen.data] : [];
    }),
  };
}

/** Under pareto the per-case differences are those of the candidate the status is about, against its parent. */
function paretoCases(
  candidates: readonly unknown[] | undefined,
  candidate: number | undefined,
): PairedCase[] | null {
  if (candidate === undefined) return null;
  for (const entry of candidates ?? []) {
    const parsed = ParetoCandidate.safeParse(entry);
    if (parsed.success && parsed.data.candidate === candidate) return parsed.data.detail.paired.cases;
  }
  return null;
}

const MutationProposal = z.looseObject({
  candidate: z.number().int().min(0),
  hypothesis: z.string().optional(),
  duplicate: z.boolean().optional(),
});

export interface ProposalNote {
  candidate: number;
  hypothesis: string | null;
  duplicate: boolean;
}

/** `mutation.json` as this version writes it (its usable attempts), else `{proposals: [...]}` or the list itself. */
export function parseMutation(value: unknown): ProposalNote[] | null {
  const current = KnownMutation.safeParse(value);
  if (current.success)
    return proposalsOf(current.data).map((p) => ({
      candidate: p.candidate,
      hypothesis: p.hypothesis,
      duplicate: false,
    }));
  const list = Array.isArray(value) ? value : (value as { proposals?: unknown } | null)?.proposals;
  const parsed = z.array(MutationProposal).safeParse(list);
  if (!parsed.success) return null;
  return parsed.data.map((p) => ({
    candidate: p.candidate,
    hypothesis: p.hypothesis ?? null,
    duplicate: p.duplicate ?? false,
  }));
}
