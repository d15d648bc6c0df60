/**
 * One candidate prompt, evaluated in three stages: generate and check (each output checked as
 * soon as it is in), review (the judge ∥ the graders, once every output is in), score. The
 * judge and grader are parts passed in; a judge or grader failure (after their retries) makes
 * the evaluation an error of the kind that failed first — never a score. Failures that must
 * stop the run (auth, credit, abort) are thrown.
 */
import { randomUUID } from 'node:crypto';
import { graderBatchCalls } from '../grader/grader-batch-calls.js';
import { caseInputsFor } from '../protocol/case-inputs.js';
import { judgeBatchCalls } from '../judge/judge-batch-calls.js';
import type { JudgeSession } from '../judge/judge.js';
import { linkSignals } from '../providers/linked-signal.js';
import type { CandidateOutcome, EvaluateDeps, EvaluateInput, Generation } from './evaluate-types.js';
import { generateAndCheck } from './generate-and-check.js';
import { outputText } from './output-text.js';
import { graderCaseOf, reviewOutputs } from './review-outputs.js';
import { scoreCandidate } from './score-candidate.js';

/**
 * docs/design/cost-engine.md: the built-in judge's and grader's calls for these outputs, answered
 * by batches before they run (they then find every answer in the cache).
 */
async function batchReviewCalls(
  input: EvaluateInput,
  generations: readonly Generation[],
  batch: NonNullable<EvaluateDeps['batch']>,
  review: { judged: boolean; graded: boolean },
): Promise<void> {
  const { experiment } = input;
  const inputs = caseInputsFor(experiment.config.judging, input.cases);
  const inputOf = (caseId: string) => {
    const text = inputs?.get(caseId);
    return text === undefined ? {} : { input: text };
  };
  const ok = generations.filter((g) => g.ok);
  const judging = review.judged
    ? judgeBatchCalls(
        experiment,
        ok.map((g) => ({
          text: outputText(g),
          ...(g.agent === undefined ? {} : { folder: g.agent.folder }),
          ...inputOf(g.caseId),
        })),
      )
    : [];
  const grading = review.graded
    ? graderBatchCalls(
        experiment,
        input.cases
          .filter((c) => c.expectations.length > 0)
          .map((c) =>
            graderCaseOf(
              experiment,
              c,
              ok.filter((g) => g.caseId === c.id),
              inputOf(c.id),
            ),
          ),
      )
    : [];
  await Promise.all([
    judging.length === 0 ? undefined : batch(judging, 'judging'),
    grading.length === 0 ? undefined : batch(grading, 'grading'),
  ]);
}

export async function evaluateCandidate(input: EvaluateInput, deps: EvaluateDeps): Promise<CandidateOutcome> {
  const { experiment } = input;
  const judged = experiment.rubric !== undefined && experiment.models.judge !== undefined;
  const graded = experiment.models.grader !== undefined && input.cases.some((c) => c.expectations.length > 0);
  // A missing part would silently drop a score component: refuse instead.
  if (judged && deps.judge === undefined) throw new Error('evaluateCandidate: the rubric needs a judge');
  if (graded && deps.grader === undefined)
    throw new Error('evaluateCandidate: the expectations need a grader');

  // Every call of this evaluation goes on one ledger account: its cost is what the ledger
  // recorded there, from the same records as the run's spend.
  const account = `evaluation-${randomUUID()}`;
  const settle = () => deps.pool.ledger.settle(account);
  // Stops the judge and the graders when one of them fails; the run's Ctrl-C reaches both too.
  const review = new AbortController();
  const reviewSignal = linkSignals(deps.signal, review.signal);
  let session: JudgeSession | undefined;
  const openJudge = () => {
    if (judged && session === undefined) session = deps.judge?.open({ signal: reviewSignal.signal, account });
  };
  try {
    const { generations, checks } = await generateAndCheck(input, deps, {
      account,
      // Under --batch the judge starts after its batch: an hour's wait is no warm-up.
      onFirstOutput: () => {
        if (deps.batch === undefined) openJudge();
      },
    });
    if (deps.batch !== undefined) {
      await batchReviewCalls(input, generations, deps.batch, { judged, graded });
      openJudge();
    }
    const reviewed = await reviewOutputs(
      {
        experiment,
        cases: input.cases,
        generations,
        seed: input.seed,
        ...(session === undefined ? {} : { judge: session }),
        ...(graded && deps.grader !== undefined ? { grader: deps.grader } : {}),
      },
      {
        signal: reviewSignal.signal,
        stop: () => review.abort(),
        ...(deps.signal === undefined ? {} : { runSignal: deps.signal }),
        account,
        ...(deps.onPhase === undefined ? {} : { onPhase: deps.onPhase }),
      },
    );
    if (!reviewed.ok) return { ...reviewed, generations, costUsd: settle() };
    deps.onPhase?.('scoring');
    const scored = scoreCandidate({
      experiment,
      cases: input.cases,
      samples: input.samples,
      generations,
      checks,
      judged,
      ...(reviewed.judge === undefined ? {} : { judge: reviewed.judge }),
      gradings: reviewed.gradings,
    });
    return {
      ok: true,
      ...scored,
      generations,
      ...(reviewed.judge === undefined ? {} : { judge: reviewed.judge }),
      gradings: reviewed.gradings,
      costUsd: settle(),
    };
  } finally {
    // No warm judge outlives the evaluation, whatever stopped it.
    await session?.close();
    reviewSignal.dispose();
    // An evaluation that threw leaves no account behind (a settled one is already gone).
    settle();
  }
}
