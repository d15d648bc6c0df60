/**
 * One candidate's evidence, case by case: each output with its check results, the judge's
 * scores and reasoning (mapped back from the neutral file names through judge-map.json) and
 * the grader's verdicts with their evidence and flags.
 */
import { AgentCaseRecord } from '../agent/agent-record.js';
import {
  parseChecks,
  parseGrading,
  parseJudgeMap,
  parseJudgeScores,
  type ReviewedGrading,
} from './artifact-schemas.js';
import { isRecord } from '../is-record.js';
import { JudgePanelRecord } from '../scoring/types.js';
import type { PanelView } from './report-data.js';
import type { CandidateFolder } from './run-folder.js';

export interface CheckView {
  name: string;
  type: string;
  pass: boolean;
  score: number;
  reason: string;
  gate: boolean;
  error: boolean;
}

export interface JudgeView {
  criteria: Record<string, number>;
  average: number;
  reasoning: string;
  /**
   * Checklist criteria's answers, item by item (docs/design/judge-reliability.md), when the judge
   * gave them.
   */
  items?: Record<string, { item: string; met: boolean }[]>;
  /** A judge panel's members' own scores for this output (docs/design/judge-reliability.md). */
  members?: { label: string; criteria: Record<string, number> }[];
}

/** An agent case (docs/design/agent-runs.md): how it ended, what it used and left, its transcript. */
export interface AgentView {
  endReason: string;
  turns: number;
  durationMs: number;
  tools: Record<string, number>;
  files: { path: string; status: string; skipped?: string }[];
  error?: string;
  transcript: string | null;
  transcriptTruncated: boolean;
}

export interface SampleView {
  sample: number;
  output: string | null;
  truncated: boolean;
  checks: CheckView[];
  judge: JudgeView | null;
  /** An agent run's case; absent for a model call. */
  agent?: AgentView;
}

export interface GradingView {
  expectations: { text: string; passed: boolean; evidence: string; flag: string | null }[];
  claims: { claim: string; type: string; verified: boolean; evidence: string }[];
  passed: number;
  total: number;
}

export type CaseSplit = 'train' | 'holdout';

export interface CaseView {
  caseId: string;
  /** From the candidate's evaluation.json (else the run's latest one); null when none says. */
  split: CaseSplit | null;
  samples: SampleView[];
  grading: GradingView | null;
}

/**
 * Each case's split as an evaluation recorded it (`evaluation.cases[].split` in
 * evaluation.json); empty when the file is missing (an error, an evaluation cut short).
 */
export function readCaseSplits(evaluation: unknown): Map<string, CaseSplit> {
  const splits = new Map<string, CaseSplit>();
  const inner = isRecord(evaluation) ? evaluation['evaluation'] : undefined;
  const cases = isRecord(inner) ? inner['cases'] : undefined;
  if (!Array.isArray(cases)) return splits;
  for (const item of cases) {
    if (!isRecord(item) || typeof item['id'] !== 'string') continue;
    const split = item['split'];
    if (split === 'train' || split === 'holdout') splits.set(item['id'], split);
  }
  return splits;
}

/**
 * A judge panel's record in the candidate's evaluation.json (docs/design/judge-reliability.md);
 * null without one.
 */
export function readPanel(evaluation: unknown): PanelView | null {
  const panel = readPanelRecord(evaluation);
  if (panel === null) return null;
  const { aggregate, members, alpha, alphaByCriterion } = panel;
  return { aggregate, members: members.map((m) => m.label), alpha, alphaByCriterion };
}

function readPanelRecord(evaluation: unknown): JudgePanelRecord | null {
  const inner = isRecord(evaluation) ? evaluation['evaluation'] : undefined;
  const judge = isRecord(inner) ? inner['judge'] : undefined;
  const parsed = JudgePanelRecord.safeParse(isRecord(judge) ? judge['panel'] : undefined);
  return parsed.success ? parsed.data : null;
}

/** `splits`: each case's split, as readCaseSplits read it (for this candidate, or the latest recorded). */
export function buildCaseViews(folder: CandidateFolder, splits: ReadonlyMap<string, CaseSplit>): CaseView[] {
  const cases = new Map<string, CaseView>();
  const caseOf = (caseId: string): CaseView => {
    let view = cases.get(caseId);
    if (!view) {
      view = { caseId, split: splits.get(caseId) ?? null, samples: [], grading: null };
      cases.set(caseId, view);
    }
    return view;
  };
  const sampleOf = (caseId: string, sample: number): SampleView => {
    const view = caseOf(caseId);
    let found = view.samples.find((s) => s.sample === sample);
    if (!found) {
      found = { sample, output: null, truncated: false, checks: [], judge: null };
      view.samples.push(found);
    }
    return found;
  };

  for (const output of folder.outputs) {
    const view = sampleOf(output.caseId, output.sample);
    view.output = output.text;
    view.truncated = output.truncated;
  }
  for (const entry of folder.agent) {
    const parsed = AgentCaseRecord.safeParse(entry.record);
    if (!parsed.success) continue;
    const r = parsed.data;
    sampleOf(entry.caseId, entry.sample).agent = {
      endReason: r.endReason,
      turns: r.turns,
      durationMs: r.durationMs,
      tools: r.tools,
      files: r.files.map((f) => ({
        path: f.path,
        status: f.status,
        ...(f.skipped ? { skipped: f.skipped } : {}),
      })),
      ...(r.error === undefined ? {} : { error: r.error }),
      transcript: entry.transcript,
      transcriptTruncated: entry.transcriptTruncated,
    };
  }
  for (const group of parseChecks(folder.checks) ?? []) {
    sampleOf(group.caseId, group.sample).checks = group.outcomes.map((o) => ({
      name: o.name,
      type: o.type,
      pass: o.pass,
      score: o.score,
      reason: o.reason,
      gate: o.gate,
      error: o.error ?? false,
    }));
  }
  const map = parseJudgeMap(folder.judgeMap);
  const scores = parseJudgeScores(folder.judgeScores);
  if (map && scores) {
    for (const scored of scores.per_output) {
      const target = map.get(scored.file);
      if (!target) continue;
      sampleOf(target.caseId, target.sample).judge = {
        criteria: scored.criteria_scores,
        average: scored.average,
        reasoning: scored.reasoning,
        ...(scored.items === undefined ? {} : { items: scored.items }),
      };
    }
  }
  for (const member of readPanelRecord(folder.evaluation)?.members ?? []) {
    for (const scored of member.scores) {
      const judge = sampleOf(scored.caseId, scored.sample).judge;
      if (judge)
        judge.members = [...(judge.members ?? []), { label: member.label, criteria: scored.criteria }];
    }
  }
  for (const entry of folder.grading) {
    const grading = parseGrading(entry.value);
    if (!grading) continue;
    caseOf(entry.caseId).grading = toGradingView(grading);
  }

  const list = [...cases.values()].sort((a, b) => (a.caseId < b.caseId ? -1 : a.caseId > b.caseId ? 1 : 0));
  for (const view of list) view.samples.sort((a, b) => a.sample - b.sample);
  return list;
}

function toGradingView(grading: ReviewedGrading): GradingView {
  const expectations = grading.expectations.map((e) => ({
    text: e.text,
    passed: e.passed,
    evidence: e.evidence,
    flag: e.flag ?? null,
  }));
  return {
    expectations,
    claims: grading.claims,
    passed: expectations.filter((e) => e.passed).length,
    total: expectations.length,
  };
}
