/**
 * What `show <run> <iteration>` prints (src/ui/format-iteration.ts), read from the run record: the
 * iteration's record in the fold, its decision's own sentences (decision.json), and the decided
 * candidate's folder — per-case scores from evaluation.json, checks, judge scores and gradings
 * through the report's readers.
 */
import { AutoresearchError } from '../errors.js';
import { CandidateScores } from '../evaluate/candidate-result.js';
import { buildCaseViews, readCaseSplits } from '../report/case-details.js';
import { readIteration } from '../report/read-run-folder.js';
import { KnownDecision } from '../run/decision-record.js';
import type { RunState } from '../run/run-state.js';
import { KnownMutation } from '../run/mutation-record.js';
import type { AgentDigestShown, IterationDetail } from '../ui/format-iteration.js';

export async function readIterationDetail(
  dir: string,
  state: RunState,
  value: string,
): Promise<IterationDetail> {
  const numbers = state.iterations.map((r) => r.iteration);
  const iteration = Number(value);
  const record = state.iterations.find((r) => r.iteration === iteration);
  if (!/^\d+$/.test(value) || record === undefined)
    throw new AutoresearchError('E_USAGE', `this run has no iteration ${value}`, {
      hint:
        numbers.length === 0
          ? 'no iteration has finished yet'
          : `its iterations are ${Math.min(...numbers)} to ${Math.max(...numbers)}`,
    });
  const folder = await readIteration(dir, iteration, []);
  const candidate = folder.candidates.find((c) => c.candidate === (record.candidate ?? 0));
  const stored = CandidateScores.safeParse((candidate?.evaluation as { scores?: unknown } | null)?.scores);
  const scores = stored.success ? [...stored.data.train.cases, ...stored.data.holdout.cases] : [];
  return {
    record,
    decision: decisionSentences(folder.decision),
    scores,
    cases: candidate ? buildCaseViews(candidate, readCaseSplits(candidate.evaluation)) : [],
    toldAboutAgents: toldAboutAgents(folder.mutation),
  };
}

/**
 * What the mutator was told about agents (docs/agents.md "What the mutator sees"): each failing
 * case's digest as mutation.json keeps it, with its pareto candidate where several had their own
 * request.
 */
function toldAboutAgents(value: unknown): AgentDigestShown[] {
  const parsed = KnownMutation.safeParse(value);
  if (!parsed.success) return [];
  const m = parsed.data;
  const requests =
    'feedback' in m
      ? [{ feedback: m.feedback }]
      : m.candidates.flatMap((c) =>
          c.feedback
            ? [{ ...(m.candidates.length > 1 ? { candidate: c.candidate } : {}), feedback: c.feedback }]
            : [],
        );
  return requests.flatMap(({ feedback, ...where }) =>
    feedback.failing_cases.flatMap((c) => (c.agent ? [{ ...where, caseId: c.case_id, ...c.agent }] : [])),
  );
}

/** The decision's own words: the reason of a greedy or margin decision, each pareto candidate's message. */
function decisionSentences(value: unknown): string[] {
  const parsed = KnownDecision.safeParse(value);
  if (!parsed.success) return [];
  const d = parsed.data;
  if ('search' in d)
    return d.candidates.map((c) =>
      d.candidates.length > 1 ? `candidate ${c.candidate}: ${c.message}` : c.message,
    );
  if ('reason' in d) return [d.reason];
  if ('message' in d) return [d.message];
  return [];
}
