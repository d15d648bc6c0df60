/**
 * Evaluate one prompt as candidate k of an iteration: write its prompt, run the evaluation,
 * write every artifact, and journal its scores. Shared by the baseline, the iterations,
 * screening (two stages in one folder), retests and confirmation re-runs.
 */
import { evaluateAndRecord } from '../evaluate/evaluate-and-record.js';
import type { CandidateOutcome, EvaluateDeps, EvaluatedCandidate } from '../evaluate/evaluate-types.js';
import { evaluateStaged } from '../evaluate/staged-evaluation.js';
import type { Case } from '../experiment/types.js';
import { writeCandidatePrompt } from '../evaluate/write-candidate.js';
import type { RunEventBody, SplitScores } from '../run/events.js';
import { type CandidatePaths, candidatePaths } from '../run/paths.js';
import type { SplitScore } from '../scoring/index.js';
import { batchPart, type LoopDeps, reviewParts } from './loop-deps.js';

export interface EvaluateProposalInput {
  iteration: number;
  candidate: number;
  prompt: string;
  sampleBase: number;
  repeat?: number;
  /** The cases to evaluate (default: the experiment's — the loop's experiment holds no test case). */
  cases?: readonly Case[];
  /** Samples per case (default: `search.samples`). */
  samples?: number;
  /** Where the record goes (default: the candidate's folder). */
  paths?: CandidatePaths;
  /** Journal the scores as `candidate_evaluated` (default); off for the incumbent's retest. */
  journal?: boolean;
  /** Screening: `cases` is the minibatch; `rest` is evaluated only when `proceed` says so. */
  screen?: { rest: readonly Case[]; proceed: (first: EvaluatedCandidate) => boolean };
}

export interface ProposalEvaluation {
  outcome: CandidateOutcome;
  /** Under screening: whether the rest was evaluated. */
  proceeded: boolean;
  /** Under screening: the minibatch's own result (undefined when it failed). */
  firstStage?: EvaluatedCandidate;
}

export async function evaluateProposal(
  deps: LoopDeps,
  input: EvaluateProposalInput,
): Promise<CandidateOutcome> {
  return (await evaluateProposalStaged(deps, input)).outcome;
}

export async function evaluateProposalStaged(
  deps: LoopDeps,
  input: EvaluateProposalInput,
): Promise<ProposalEvaluation> {
  const { experiment, recorder } = deps;
  const paths = input.paths ?? candidatePaths(deps.runDir, input.iteration, input.candidate);
  // Written while the evaluation runs (it needs no file); done before the journal counts it.
  const promptWritten = writeCandidatePrompt(paths, input.prompt);
  promptWritten.catch(() => undefined);
  let lastPhase: string | undefined;
  const evaluateInput = {
    experiment,
    prompt: input.prompt,
    samples: input.samples ?? experiment.config.search.samples,
    sampleBase: input.sampleBase,
    seed: experiment.config.search.seed + input.iteration * 1000 + input.candidate,
  };
  const evaluateDeps: EvaluateDeps = {
    pool: deps.pool,
    signal: deps.signal,
    env: deps.env,
    ...reviewParts(deps),
    ...batchPart(deps, input.iteration),
    onPhase: (phase, progress) => {
      if (phase === 'generating' && progress && progress.done > 0) deps.checkpoint?.('generated');
      // Journal phase changes only — never one event per model call.
      if (phase === lastPhase || input.journal === false) return;
      lastPhase = phase;
      // A failed append is kept by the recorder and raised by its next emit.
      recorder
        .emit({ type: 'phase', iteration: input.iteration, phase, candidate: input.candidate })
        .catch(() => undefined);
    },
  };
  const cases = input.cases ?? experiment.cases;
  const screen = input.screen;
  const evaluated: Promise<ProposalEvaluation> = screen
    ? evaluateStaged(
        paths,
        { ...evaluateInput, first: cases, rest: screen.rest },
        evaluateDeps,
        screen.proceed,
      )
    : evaluateAndRecord(paths, { ...evaluateInput, cases }, evaluateDeps).then((outcome) => ({
        outcome,
        proceeded: true,
      }));
  let result: ProposalEvaluation;
  try {
    result = await evaluated;
  } catch (error) {
    await promptWritten.catch(() => undefined);
    throw error;
  }
  await promptWritten;
  const { outcome } = result;
  if (outcome.ok && input.journal !== false) {
    const { train, holdout, all } = outcome.scores;
    const panel = outcome.evaluation.judge?.panel;
    const event: RunEventBody = {
      type: 'candidate_evaluated',
      iteration: input.iteration,
      candidate: input.candidate,
      ...(input.repeat === undefined ? {} : { repeat: input.repeat }),
      scores: { train: toEventScores(train), holdout: toEventScores(holdout), all: toEventScores(all) },
      gateFailure: describeGateFailure(all),
      criteria: clampCriteria(train.criteria),
      costUsd: outcome.costUsd,
      ...(panel === undefined ? {} : { judgeAlpha: panel.alpha }),
    };
    await recorder.emit(event);
  }
  return result;
}

export function toEventScores(score: SplitScore): SplitScores {
  return {
    total: score.total,
    checks: score.checks ?? null,
    judge: score.judge ?? null,
    expectations: score.expectations ?? null,
  };
}

function describeGateFailure(score: SplitScore): string | null {
  const first = score.gateFailures[0];
  if (!first) return null;
  const more = score.gateFailures.length > 1 ? ` (and ${score.gateFailures.length - 1} more)` : '';
  return `${first.check} failed on ${first.caseId}#${first.sample}: ${first.reason}${more}`;
}

function clampCriteria(criteria: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(criteria).map(([k, v]) => [k, Math.min(5, Math.max(1, v))]));
}
