/**
 * Per-case results of one evaluation, as the mutator's feedback reads them: each train case
 * with its score, outputs, failed checks, judge reasoning and graded expectations. Holdout
 * cases are dropped here, before anything is built for the mutator; an agent experiment's
 * activity is looked up by train case only.
 */
import type { Evaluation, JudgeRecord, SplitScore } from '../scoring/index.js';
import { outputText } from '../evaluate/output-text.js';
import type { TrainAgentActivity } from './agent-records.js';
import type { CaseResult } from './build-feedback.js';

export function trainCaseResults(
  evaluation: Evaluation,
  train: SplitScore,
  vars: ReadonlyMap<string, Record<string, string>>,
  /** Agent experiments: what the agent did in each train case and sample (src/loop/agent-records.ts). */
  agent?: TrainAgentActivity,
): CaseResult[] {
  const scoreOf = new Map(train.cases.map((c) => [c.caseId, c.total ?? 0]));
  return evaluation.cases
    .filter((c) => c.split === 'train')
    .map((c) => {
      const samples = Array.from({ length: evaluation.samples }, (_, sample) => {
        const output = evaluation.outputs.find((o) => o.caseId === c.id && o.sample === sample);
        const checks =
          evaluation.checks.find((k) => k.caseId === c.id && k.sample === sample)?.outcomes ?? [];
        const judged = evaluation.judge?.scores.find((s) => s.caseId === c.id && s.sample === sample);
        const grading = evaluation.gradings.find((g) => g.caseId === c.id);
        const activity = agent?.get(c.id)?.[sample];
        return {
          output: output?.ok ? outputText(output) : null,
          ...(output?.error === undefined ? {} : { error: output.error }),
          checks: checks.map((o) => ({ name: o.name, type: o.type, pass: o.pass, reason: o.reason })),
          judge: judged ? { criteria: judged.criteria, reasoning: withUnmetItems(judged) } : null,
          expectations: (grading?.expectations ?? []).map((e) => ({
            text: e.text,
            passed: e.passed && !e.flagged,
            evidence: e.evidence,
          })),
          ...(activity === undefined ? {} : { agent: activity }),
        };
      });
      return {
        id: c.id,
        split: 'train' as const,
        vars: vars.get(c.id) ?? {},
        score: scoreOf.get(c.id) ?? 0,
        samples,
      };
    });
}

/**
 * The judge's reasoning, with the checklist items the output missed
 * (docs/design/judge-reliability.md) named after it.
 */
function withUnmetItems(judged: JudgeRecord): string {
  const unmet = Object.values(judged.items ?? {})
    .flat()
    .filter((answer) => !answer.met)
    .map((answer) => answer.item);
  return unmet.length === 0
    ? judged.reasoning
    : `${judged.reasoning} Unmet checklist items: ${unmet.join('; ')}.`;
}
