/**
 * A judge that runs in the test's process, behind the same interface as the sandboxed one: it
 * receives only the outputs and the rubric (plus the seed and the abort signal), lays them out
 * under neutral names like the sandbox does, scores each output's text with the test's
 * function and hands its file to the runner's own validation. Every request and session it
 * saw is kept, so a test can assert what the judge was shown.
 *
 *   const judge = createInProcessJudge((text, criterion) => (text.includes('warm') ? 5 : 2));
 */
import type { Rubric } from '../../src/experiment/types.js';
import type { Judge, JudgeRequest, JudgeResult } from '../../src/judge/judge.js';
import type { ReviewCallOptions } from '../../src/protocol/review-call.js';
import type { JudgeMapEntry } from '../../src/judge/judge-layout.js';
import { planJudgeLayout } from '../../src/judge/judge-layout.js';
import { OUTPUTS_DIR } from '../../src/protocol/review-files.js';
import { validateJudgeScores } from '../../src/judge/validate-judge-scores.js';

/** An integer 1–5 for one output's text and one criterion key; throw to make a judge_error. */
export type ScoreText = (text: string, criterion: string) => number;

export interface InProcessJudge extends Judge {
  /** Every request, as the evaluation sent it. */
  readonly requests: JudgeRequest[];
  /** Every session's options, as the evaluation opened it. */
  readonly sessions: ReviewCallOptions[];
  /** Sessions closed so far. */
  closed(): number;
}

export function createInProcessJudge(score: ScoreText): InProcessJudge {
  const requests: JudgeRequest[] = [];
  const sessions: ReviewCallOptions[] = [];
  let closed = 0;
  return {
    requests,
    sessions,
    closed: () => closed,
    open(options) {
      sessions.push(options);
      return {
        async judge(request) {
          requests.push(request);
          // Like the sandboxed judge: stopped, it reports a failure rather than throwing.
          if (options.signal.aborted)
            return { ok: false, kind: 'judge_error', message: 'stopped', attempts: 0 };
          return judgeInProcess(request, score);
        },
        async close() {
          closed += 1;
        },
      };
    },
  };
}

function judgeInProcess(request: JudgeRequest, score: ScoreText): JudgeResult {
  const layout = planJudgeLayout(request.outputs, request.rubric.text, request.seed);
  const keys = criteriaOf(request.rubric);
  const texts = new Map(layout.files.map((f) => [f.path, f.text]));
  let raw: unknown;
  try {
    raw = {
      per_output: layout.map.map((entry) => {
        const text = texts.get(`${OUTPUTS_DIR}/${entry.file}`) ?? '';
        return {
          file: entry.file,
          criteria_scores: Object.fromEntries(keys.map((key) => [key, score(text, key)])),
          reasoning: 'scored in-process',
        };
      }),
    };
  } catch (error) {
    return { ok: false, kind: 'judge_error', message: (error as Error).message, attempts: 1 };
  }
  const checked = validateJudgeScores(raw, { files: layout.map.map((m) => m.file), criteria: keys });
  if (!checked.ok)
    return { ok: false, kind: 'judge_error', message: checked.problems.join('; '), attempts: 1 };
  const origins = new Map(layout.map.map((m) => [m.file, m]));
  return {
    ok: true,
    perOutput: checked.outputs.map((scored) => {
      const origin = origins.get(scored.file) as JudgeMapEntry;
      return { caseId: origin.case_id, sample: origin.sample, ...scored };
    }),
    criteriaAverages: checked.criteriaAverages,
    qualityScore: checked.qualityScore,
    raw,
    map: layout.map,
    attempts: 1,
  };
}

function criteriaOf(rubric: Rubric): string[] {
  return rubric.criteria.map((c) => c.key);
}
