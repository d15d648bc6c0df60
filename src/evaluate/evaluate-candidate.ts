/**
 * One candidate prompt, evaluated: generate → check → (judge ∥ grade) → score, each output's
 * checks starting as soon as it is generated (`onGenerated` lets the caller write it), the
 * judge and the graders side by side once every output is in. Judge and grader failures (after
 * their retries) make the evaluation an error of the kind that failed first — they never yield
 * a score. Failures that must stop the run (auth, credit, abort) are thrown.
 */
import pLimit from 'p-limit';
import { runChecks } from '../checks/run-checks.js';
import type { SampleChecks } from '../checks/check-result.js';
import type { Case, Experiment } from '../experiment/types.js';
import { runGrader } from '../grader/run-grader.js';
import type { VerifiedGrading } from '../grader/verify-grading.js';
import { type JudgeRunResult, runJudge, startJudgeEarly } from '../judge/run-judge.js';
import type { StartedProgram } from '../judge/run-sandboxed-program.js';
import { linkSignals } from '../providers/linked-signal.js';
import type { ModelPool } from '../providers/model-pool.js';
import type { ProviderError } from '../providers/types.js';
import type { Phase } from '../run/events.js';
import {
  type CaseGrading,
  type Evaluation,
  type SplitScore,
  scoreSplit,
  toScoringCases,
} from '../scoring/index.js';
import { generateOutputs, type Generation } from './generate.js';
import { scrubSecrets } from './scrub-env.js';
import { type Tally, tallyClient } from './tally-client.js';

export interface EvaluateInput {
  experiment: Experiment;
  prompt: string;
  /** Usually every case; the scores are split by each case's label. */
  cases: readonly Case[];
  samples: number;
  sampleBase: number;
  /** Seeds the judge's shuffle of file names. */
  seed: number;
}

export interface EvaluateDeps {
  pool: ModelPool;
  signal?: AbortSignal;
  onPhase?: (phase: Phase, progress?: { done: number; total: number }) => void;
  /** Path of the built CLI, for the built-in judge and grader programs. */
  cliEntry?: string;
  env?: NodeJS.ProcessEnv;
  /** Each output as it is generated (the record writer starts its file). */
  onGenerated?: (generation: Generation) => void;
  /** Every output's checks, once all are done (before the judge runs). */
  onChecked?: (checks: readonly SampleChecks[]) => void;
}

export interface CandidateScores {
  train: SplitScore;
  holdout: SplitScore;
  all: SplitScore;
}

export interface EvaluatedCandidate {
  ok: true;
  evaluation: Evaluation;
  generations: Generation[];
  scores: CandidateScores;
  judge?: Extract<JudgeRunResult, { ok: true }>;
  gradings: GradedCase[];
  costUsd: number;
}

export interface GradedCase {
  caseId: string;
  raw: unknown;
  grading: VerifiedGrading;
}

export interface FailedCandidate {
  ok: false;
  errorKind: 'judge_error' | 'grader_error';
  message: string;
  generations: Generation[];
  costUsd: number;
}

export type CandidateOutcome = EvaluatedCandidate | FailedCandidate;

export async function evaluateCandidate(input: EvaluateInput, deps: EvaluateDeps): Promise<CandidateOutcome> {
  // Judge and graders run side by side once the outputs are in; when one of them fails, the
  // other is stopped through this signal (the evaluation is an error either way, and its
  // remaining calls would be paid for nothing). The run's Ctrl-C reaches both through it too.
  const review = new AbortController();
  const reviewSignal = linkSignals(deps.signal, review.signal);
  try {
    return await evaluate(input, deps, { controller: review, signal: reviewSignal.signal });
  } finally {
    reviewSignal.dispose();
  }
}

interface ReviewFailure {
  who: 'judge' | 'grader';
  message: string;
  error?: ProviderError;
}

interface Review {
  /** Aborted when the judge or a grader has failed, to stop the rest. */
  controller: AbortController;
  /** The run's signal and the controller's, for the judge and the graders. */
  signal: AbortSignal;
}

async function evaluate(input: EvaluateInput, deps: EvaluateDeps, review: Review): Promise<CandidateOutcome> {
  const { experiment } = input;
  const tally: Tally = { usd: 0, calls: 0 };
  const signalOpt = deps.signal ? { signal: deps.signal } : {};
  const envOpt = deps.env ? { env: deps.env } : {};
  const cliOpt = deps.cliEntry ? { cliEntry: deps.cliEntry } : {};

  const { rubric, models } = experiment;
  const judgeOptions =
    rubric && models.judge
      ? {
          judge: models.judge,
          ...(deps.pool.has('judge') ? { client: tallyClient(deps.pool.client('judge'), tally) } : {}),
          commandCwd: experiment.dir,
          signal: review.signal,
          ...cliOpt,
          ...envOpt,
        }
      : undefined;
  // The built-in judge is started once the first output is in (or generation is over) and
  // waits for the rest: its start-up overlaps generation. Not before the first output: starting
  // a process blocks this thread for a moment, which would delay the first requests.
  let judgeStarted: Promise<StartedProgram | undefined> | undefined;
  const startJudge = () => {
    if (judgeOptions === undefined || judgeStarted !== undefined) return;
    // Its own failure to start is not fatal: the first attempt then starts it the ordinary way.
    judgeStarted = startJudgeEarly(judgeOptions).catch(() => undefined);
  };
  const stopJudge = async () => {
    await (await judgeStarted)?.cancel();
  };

  deps.onPhase?.('generating');
  // Each output is checked as soon as it is in, while the other calls still wait on the model:
  // the checking phase then only waits for the last outputs' checks.
  const checkOne = createChecker(experiment, input.cases, deps);
  const checking: Promise<SampleChecks>[] = [];
  let generations: Generation[];
  let checks: SampleChecks[];
  try {
    generations = await generateOutputs({
      prompt: input.prompt,
      cases: input.cases,
      samples: input.samples,
      sampleBase: input.sampleBase,
      client: tallyClient(deps.pool.client('generator'), tally),
      ...signalOpt,
      onProgress: (done, total) => {
        if (done > 0) startJudge();
        deps.onPhase?.('generating', { done, total });
      },
      onGenerated: (generation, index) => {
        const checked = checkOne(generation);
        // Awaited below; until then a failure must not count as unhandled.
        checked.catch(() => undefined);
        checking[index] = checked;
        deps.onGenerated?.(generation);
      },
    });
    if (generations.some((g) => g.ok)) startJudge();

    deps.onPhase?.('checking');
    checks = await Promise.all(checking);
    deps.onChecked?.(checks);
  } catch (error) {
    // No check may outlive the evaluation, whatever stopped it.
    await Promise.allSettled(checking);
    await stopJudge();
    throw error;
  }

  const judged = generations.filter((g) => g.ok);
  const graded = models.grader ? input.cases.filter((c) => c.expectations.length > 0) : [];
  // With nothing generated there is nothing to judge: every output sits at the floor (SPEC 5).
  const judging = rubric !== undefined && judgeOptions !== undefined && judged.length > 0;
  if (!judging) await stopJudge();

  // The first of them to fail decides the error; the other is stopped.
  const failures: ReviewFailure[] = [];
  const failed = (failure: ReviewFailure) => {
    failures.push(failure);
    review.controller.abort();
  };

  let gradingReported = false;
  let gradersDone = 0;
  const reportGrading = () => {
    if (graded.length === 0) return;
    gradingReported = true;
    deps.onPhase?.('grading', { done: gradersDone, total: graded.length });
  };

  const judgeTask = async (): Promise<Extract<JudgeRunResult, { ok: true }> | undefined> => {
    if (!judging || rubric === undefined || judgeOptions === undefined) return undefined;
    deps.onPhase?.('judging');
    const warm = await judgeStarted;
    const result = await runJudge({
      outputs: judged.map((g) => ({ caseId: g.caseId, sample: g.sample, text: g.text })),
      rubric,
      seed: input.seed,
      ...judgeOptions,
      ...(warm === undefined ? {} : { started: warm }),
    });
    if (!result.ok) {
      failed({
        who: 'judge',
        message: result.message,
        ...(result.providerError === undefined ? {} : { error: result.providerError }),
      });
      return undefined;
    }
    // The graders may still be at work: from here on, the phase is theirs.
    reportGrading();
    return result;
  };

  const gradeTask = async (): Promise<GradedCase[]> => {
    if (graded.length === 0 || models.grader === undefined) return [];
    if (!judging) reportGrading();
    const grader = models.grader;
    const limit = pLimit(Math.max(1, experiment.config.concurrency));
    const results = await Promise.all(
      graded.map((testCase) =>
        limit(async (): Promise<GradedCase | undefined> => {
          const outputs = generations.filter((g) => g.caseId === testCase.id && g.ok);
          // A case with no output fails all its expectations: nothing to grade (SPEC 5).
          if (outputs.length === 0) return undefined;
          const result = await runGrader({
            expectations: testCase.expectations,
            vars: testCase.vars,
            model: describeModel(experiment),
            outputs: outputs.map((g) => ({
              sample: g.sample,
              text: g.text,
              ...(g.stopReason === undefined ? {} : { stopReason: g.stopReason }),
            })),
            grader,
            ...(deps.pool.has('grader') ? { client: tallyClient(deps.pool.client('grader'), tally) } : {}),
            commandCwd: experiment.dir,
            signal: review.signal,
            ...cliOpt,
            ...envOpt,
          });
          if (!result.ok) {
            failed({
              who: 'grader',
              message: `case ${testCase.id}: ${result.message}`,
              ...(result.providerError === undefined ? {} : { error: result.providerError }),
            });
            return undefined;
          }
          gradersDone += 1;
          if (gradingReported) reportGrading();
          return { caseId: testCase.id, raw: result.raw, grading: result.grading };
        }),
      ),
    );
    return results.filter((r): r is GradedCase => r !== undefined);
  };

  // Neither may outlive the evaluation: a throw from one stops the other, then is rethrown.
  const [judgeSettled, gradeSettled] = await Promise.allSettled([
    judgeTask().catch((error: unknown) => {
      review.controller.abort();
      throw error;
    }),
    gradeTask().catch((error: unknown) => {
      review.controller.abort();
      throw error;
    }),
  ]);
  if (judgeSettled.status === 'rejected') throw judgeSettled.reason;
  if (gradeSettled.status === 'rejected') throw gradeSettled.reason;

  const [failure] = failures;
  if (failure !== undefined) {
    // Whichever side met it, a failure that must stop the run (auth, credit) does.
    const stopping = failures.find((f) => f.error?.stopsRun);
    if (stopping?.error !== undefined) throw stopping.error;
    rethrowIfFatal(failure.error, deps.signal);
    return {
      ok: false,
      errorKind: failure.who === 'judge' ? 'judge_error' : 'grader_error',
      message: failure.message,
      generations,
      costUsd: tally.usd,
    };
  }
  const judge = judgeSettled.value;
  const gradings = gradeSettled.value;
  const caseGradings: CaseGrading[] = gradings.map((graded) => ({
    caseId: graded.caseId,
    expectations: graded.grading.expectations.map((e) => ({
      text: e.text,
      passed: e.passed,
      evidence: e.evidence,
      ...(e.flag === undefined ? {} : { flagged: true }),
    })),
  }));

  deps.onPhase?.('scoring');
  const evaluation: Evaluation = {
    samples: input.samples,
    cases: toScoringCases(experiment.checks, [...input.cases]),
    outputs: generations.map((g) => ({
      caseId: g.caseId,
      sample: g.sample,
      ok: g.ok,
      text: g.text,
      ...(g.error === undefined ? {} : { error: g.error }),
    })),
    checks,
    ...(rubric && models.judge
      ? {
          judge: {
            criteria: rubric.criteria.map((c) => ({ key: c.key, weight: c.weight })),
            scores: (judge?.perOutput ?? []).map((o) => ({
              caseId: o.caseId,
              sample: o.sample,
              criteria: o.criteria,
              reasoning: o.reasoning,
            })),
          },
        }
      : {}),
    gradings: caseGradings,
    weights: experiment.config.scoring.weights,
  };
  return {
    ok: true,
    evaluation,
    generations,
    scores: {
      train: scoreSplit(evaluation, 'train'),
      holdout: scoreSplit(evaluation, 'holdout'),
      all: scoreSplit(evaluation, 'all'),
    },
    ...(judge ? { judge } : {}),
    gradings,
    costUsd: tally.usd,
  };
}

/** Checks one output; at most `concurrency` outputs are checked at once (command checks are processes). */
function createChecker(
  experiment: Experiment,
  cases: readonly Case[],
  deps: EvaluateDeps,
): (generation: Generation) => Promise<SampleChecks> {
  const byId = new Map(cases.map((c) => [c.id, c]));
  const limit = pLimit(Math.max(1, experiment.config.concurrency));
  const env = scrubSecrets(deps.env ?? process.env, experiment.models);
  return (g) =>
    limit(async (): Promise<SampleChecks> => {
      const testCase = byId.get(g.caseId) as Case;
      const outcomes = await runChecks({
        output: g.ok ? g.text : null,
        ...(g.error === undefined ? {} : { generationError: g.error }),
        vars: testCase.vars,
        checks: [...experiment.checks, ...testCase.checks],
        baseDir: experiment.dir,
        env,
        ...(deps.signal ? { signal: deps.signal } : {}),
      });
      return { caseId: g.caseId, sample: g.sample, outcomes };
    });
}

/** Auth/credit failures stop the run; so does Ctrl-C, even when the killed judge only reported a failure. */
function rethrowIfFatal(error: ProviderError | undefined, signal: AbortSignal | undefined): void {
  if (error && (error.stopsRun || error.kind === 'aborted')) throw error;
  signal?.throwIfAborted();
}

function describeModel(experiment: Experiment): string {
  const { generator } = experiment.models;
  return `${generator.provider}${generator.model ? ` / ${generator.model}` : ''}`;
}
