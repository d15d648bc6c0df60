/**
 * Per case, what the evaluation found: its scores, the generations that failed, the checks
 * that failed with their reasons, the expectations not met with the grader's evidence, the
 * judge's verdicts, and one short line on where it lost points — the "worst cases" view.
 */
import type { VerifiedGrading } from '../grader/verify-grading.js';
import type { CaseScore, Evaluation } from '../scoring/types.js';
import type {
  CaseReport,
  FailedCheck,
  FailedExpectation,
  JudgeVerdict,
  SignalScores,
} from './eval-report.js';

export interface CaseFindingsInput {
  evaluation: Evaluation;
  /** Per-case scores over all cases. */
  scores: readonly CaseScore[];
  gradings: ReadonlyMap<string, VerifiedGrading>;
  /** Generator seconds per case id. */
  seconds: Readonly<Record<string, number>>;
}

const REASON_LENGTH = 120;

export function describeCases(input: CaseFindingsInput): CaseReport[] {
  const { evaluation } = input;
  const scoreById = new Map(input.scores.map((s) => [s.caseId, s]));
  return evaluation.cases.map((scoringCase): CaseReport => {
    const outputs = evaluation.outputs.filter((o) => o.caseId === scoringCase.id);
    const generationErrors = outputs
      .filter((o) => !o.ok)
      .map((o) => ({ sample: o.sample, error: o.error ?? 'no output' }));
    const okSamples = new Set(outputs.filter((o) => o.ok).map((o) => o.sample));
    for (let sample = 0; sample < evaluation.samples; sample++) {
      const known = outputs.some((o) => o.sample === sample);
      if (!known) generationErrors.push({ sample, error: 'no output was recorded' });
    }
    const failedChecks: FailedCheck[] = evaluation.checks
      .filter((entry) => entry.caseId === scoringCase.id && okSamples.has(entry.sample))
      .flatMap((entry) =>
        entry.outcomes
          .filter((outcome) => !outcome.pass)
          .map((outcome) => ({
            check: outcome.name,
            sample: entry.sample,
            gate: outcome.gate,
            reason: outcome.reason,
          })),
      );
    const judge: JudgeVerdict[] = (evaluation.judge?.scores ?? [])
      .filter((record) => record.caseId === scoringCase.id)
      .map((record) => ({
        sample: record.sample,
        criteria: record.criteria,
        reasoning: record.reasoning,
        ...(record.items === undefined ? {} : { items: record.items }),
      }))
      .sort((a, b) => a.sample - b.sample);
    const failedExpectations = unmetExpectations(
      scoringCase.expectations,
      okSamples.size > 0,
      input.gradings.get(scoringCase.id),
    );
    const score = scoreById.get(scoringCase.id);
    const signals: SignalScores = {
      checks: score?.checks ?? null,
      judge: score?.judge ?? null,
      expectations: score?.expectations ?? null,
    };
    const report: Omit<CaseReport, 'reason'> = {
      id: scoringCase.id,
      split: scoringCase.split,
      total: score?.total ?? null,
      signals,
      seconds: input.seconds[scoringCase.id] ?? 0,
      generationErrors: generationErrors.sort((a, b) => a.sample - b.sample),
      failedChecks,
      failedExpectations,
      judge,
    };
    return { ...report, reason: explainLoss(report) };
  });
}

function unmetExpectations(
  expected: readonly string[],
  hasOutput: boolean,
  grading: VerifiedGrading | undefined,
): FailedExpectation[] {
  if (expected.length === 0) return [];
  if (!hasOutput)
    return expected.map((text) => ({ text, evidence: '', flag: 'not graded: the generation failed' }));
  if (grading === undefined) return expected.map((text) => ({ text, evidence: '', flag: 'not graded' }));
  const remaining = [...grading.expectations];
  const unmet: FailedExpectation[] = [];
  for (const text of expected) {
    const index = remaining.findIndex((e) => e.text.trim() === text.trim());
    const graded = index === -1 ? undefined : remaining.splice(index, 1)[0];
    if (graded === undefined) unmet.push({ text, evidence: '', flag: 'missing from the grading' });
    else if (!graded.passed) unmet.push({ text, evidence: graded.evidence, flag: graded.flag ?? null });
  }
  return unmet;
}

/** Where the case lost points, most serious first; null when it lost nothing. */
export function explainLoss(report: Omit<CaseReport, 'reason'>): string | null {
  const firstError = report.generationErrors[0];
  if (firstError) return clip(`generation failed: ${firstError.error}`);
  const gate = report.failedChecks.find((f) => f.gate);
  const others = report.failedChecks.length - 1;
  const more = others > 0 ? ` (+${others} more)` : '';
  if (gate) return clip(`gate ${gate.check} failed: ${gate.reason}${more}`);
  const check = report.failedChecks[0];
  if (check) return clip(`${check.check} failed: ${check.reason}${more}`);
  const expectation = report.failedExpectations[0];
  if (expectation) return clip(`expectation not met: "${expectation.text}"`);
  const weakest = [...report.judge].sort((a, b) => meanOf(a.criteria) - meanOf(b.criteria))[0];
  if (weakest && report.signals.judge !== null && report.signals.judge < 1) {
    const unmet = Object.values(weakest.items ?? {})
      .flat()
      .filter((a) => !a.met)
      .map((a) => a.item);
    return clip(`judge: ${weakest.reasoning}${unmet.length > 0 ? ` (unmet: ${unmet.join('; ')})` : ''}`);
  }
  return null;
}

function meanOf(criteria: Record<string, number>): number {
  const values = Object.values(criteria);
  return values.length === 0 ? 0 : values.reduce((sum, v) => sum + v, 0) / values.length;
}

function clip(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > REASON_LENGTH ? `${line.slice(0, REASON_LENGTH - 1)}…` : line;
}
