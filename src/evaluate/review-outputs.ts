/**
 * The review stage: the judge and the graders both read only the finished outputs, so they run
 * side by side. The first of them to fail decides the evaluation's error and the other is
 * stopped (its result could not be used, and its remaining calls would be paid for nothing).
 * A failure that must stop the run (auth, credit, Ctrl-C) is thrown, whichever side met it.
 */
import pLimit from 'p-limit';
import type { Case, Experiment } from '../experiment/types.js';
import type { Grader, GraderCase } from '../grader/grader.js';
import { caseInputsFor } from '../protocol/case-inputs.js';
import type { JudgeSession } from '../judge/judge.js';
import type { ProviderError } from '../providers/types.js';
import type { Phase } from '../run/events.js';
import type { Generation, GradedCase, JudgeSuccess } from './evaluate-types.js';
import { outputText } from './output-text.js';

export type Reviewed =
  | { ok: true; judge?: JudgeSuccess; gradings: GradedCase[] }
  | { ok: false; errorKind: 'judge_error' | 'grader_error'; message: string };

export interface ReviewInput {
  experiment: Experiment;
  cases: readonly Case[];
  generations: readonly Generation[];
  seed: number;
  /** Open when the experiment is judged and an output was generated. */
  judge?: JudgeSession;
  grader?: Grader;
}

export interface ReviewControl {
  /** The run's signal and the review's own: both sides stop on it. */
  signal: AbortSignal;
  /** Stops both sides (their signal aborts). */
  stop: () => void;
  /** The run's signal alone: a Ctrl-C that killed a judge is the user's interrupt, not its error. */
  runSignal?: AbortSignal;
  /** The ledger account the judge's and graders' calls go on. */
  account: string;
  onPhase?: (phase: Phase, progress?: { done: number; total: number }) => void;
}

interface ReviewFailure {
  who: 'judge' | 'grader';
  message: string;
  error?: ProviderError;
}

export async function reviewOutputs(input: ReviewInput, control: ReviewControl): Promise<Reviewed> {
  const { experiment } = input;
  const rubric = experiment.rubric;
  const judged = input.generations.filter((g) => g.ok);
  const judging = input.judge !== undefined && rubric !== undefined && judged.length > 0;
  // With nothing generated there is nothing to judge: every output sits at the floor
  // (docs/design/checks.md).
  if (!judging) await input.judge?.close();
  const graded = input.grader ? input.cases.filter((c) => c.expectations.length > 0) : [];
  const call = { signal: control.signal, account: control.account };
  // Under `judging.inputs` each output goes with its case's inputs; otherwise nothing of the case.
  const inputs = caseInputsFor(experiment.config.judging, input.cases);
  const inputOf = (caseId: string): { input?: string } => {
    const text = inputs?.get(caseId);
    return text === undefined ? {} : { input: text };
  };

  const failures: ReviewFailure[] = [];
  const failed = (failure: ReviewFailure) => {
    failures.push(failure);
    control.stop();
  };

  let gradingReported = false;
  let gradersDone = 0;
  const reportGrading = () => {
    if (graded.length === 0) return;
    gradingReported = true;
    control.onPhase?.('grading', { done: gradersDone, total: graded.length });
  };

  const judgeTask = async (): Promise<JudgeSuccess | undefined> => {
    if (!judging || input.judge === undefined || rubric === undefined) return undefined;
    control.onPhase?.('judging');
    const result = await input.judge.judge({
      outputs: judged.map((g) => ({
        caseId: g.caseId,
        sample: g.sample,
        text: outputText(g),
        ...(g.agent === undefined ? {} : { folder: g.agent.folder }),
        ...inputOf(g.caseId),
      })),
      rubric,
      seed: input.seed,
    });
    if (!result.ok) {
      failed({ who: 'judge', message: result.message, ...providerError(result.providerError) });
      return undefined;
    }
    // The graders may still be at work: from here on, the phase is theirs.
    reportGrading();
    return result;
  };

  const gradeTask = async (): Promise<GradedCase[]> => {
    const grader = input.grader;
    if (graded.length === 0 || grader === undefined) return [];
    if (!judging) reportGrading();
    const limit = pLimit(Math.max(1, experiment.config.concurrency));
    const results = await Promise.all(
      graded.map((testCase) =>
        limit(async (): Promise<GradedCase | undefined> => {
          const outputs = input.generations.filter((g) => g.caseId === testCase.id && g.ok);
          // A case with no output fails all its expectations: nothing to grade
          // (docs/design/checks.md).
          if (outputs.length === 0) return undefined;
          const result = await grader.grade(
            graderCaseOf(experiment, testCase, outputs, inputOf(testCase.id)),
            call,
          );
          if (!result.ok) {
            failed({
              who: 'grader',
              message: `case ${testCase.id}: ${result.message}`,
              ...providerError(result.providerError),
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

  // Neither may outlive the review: a throw from one stops the other, then is rethrown.
  const stopOnThrow = (error: unknown): never => {
    control.stop();
    throw error;
  };
  const [judgeSettled, gradeSettled] = await Promise.allSettled([
    judgeTask().catch(stopOnThrow),
    gradeTask().catch(stopOnThrow),
  ]);
  if (judgeSettled.status === 'rejected') throw judgeSettled.reason;
  if (gradeSettled.status === 'rejected') throw gradeSettled.reason;

  const [failure] = failures;
  if (failure !== undefined) {
    // Whichever side met it, a failure that must stop the run (auth, credit) does.
    const stopping = failures.find((f) => f.error?.stopsRun);
    if (stopping?.error !== undefined) throw stopping.error;
    rethrowIfFatal(failure.error, control.runSignal);
    return {
      ok: false,
      errorKind: failure.who === 'judge' ? 'judge_error' : 'grader_error',
      message: failure.message,
    };
  }
  return {
    ok: true,
    ...(judgeSettled.value === undefined ? {} : { judge: judgeSettled.value }),
    gradings: gradeSettled.value,
  };
}

function providerError(error: ProviderError | undefined): { error?: ProviderError } {
  return error === undefined ? {} : { error };
}

/** Auth/credit failures stop the run; so does Ctrl-C, even when the killed judge only reported a failure. */
function rethrowIfFatal(error: ProviderError | undefined, signal: AbortSignal | undefined): void {
  if (error && (error.stopsRun || error.kind === 'aborted')) throw error;
  signal?.throwIfAborted();
}

/**
 * What the grader gets for one case: its expectations, vars and successful outputs — for an agent
 * case each sample's output folder and transcript (docs/design/grader-protocol.md).
 */
export function graderCaseOf(
  experiment: Experiment,
  testCase: Case,
  outputs: readonly Generation[],
  inputOf: { input?: string },
): GraderCase {
  return {
    expectations: testCase.expectations,
    vars: testCase.vars,
    model: describeModel(experiment),
    ...inputOf,
    outputs: outputs.map((g) => ({
      sample: g.sample,
      text: outputText(g),
      ...(g.stopReason === undefined ? {} : { stopReason: g.stopReason }),
      ...(g.agent === undefined ? {} : { agent: { folder: g.agent.folder, transcript: g.agent.transcript } }),
    })),
  };
}

function describeModel(experiment: Experiment): string {
  const { generator } = experiment.models;
  return `${generator.provider}${generator.model ? ` / ${generator.model}` : ''}`;
}
