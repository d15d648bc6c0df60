/**
 * Evaluate one prompt as candidate k of an iteration: write its prompt, run the evaluation,
 * write every artifact, and journal its scores. Shared by the baseline, the iterations and
 * confirmation re-runs.
 */
import { evaluateAndRecord } from '../evaluate/evaluate-and-record.js';
import type { CandidateOutcome } from '../evaluate/evaluate-candidate.js';
import { writeCandidatePrompt } from '../evaluate/write-candidate.js';
import type { RunEventBody, SplitScores } from '../run/events.js';
import { candidatePaths } from '../run/paths.js';
import type { SplitScore } from '../scoring/index.js';
import { type LoopDeps, reviewParts } from './loop-deps.js';

export interface EvaluateProposalInput {
  iteration: number;
  candidate: number;
  prompt: string;
  sampleBase: number;
  repeat?: number;
}

export async function evaluateProposal(
  deps: LoopDeps,
  input: EvaluateProposalInput,
): Promise<CandidateOutcome> {
  const { experiment, recorder } = deps;
  const paths = candidatePaths(deps.runDir, input.iteration, input.candidate);
  // Written while the evaluation runs (it needs no file); done before the journal counts it.
  const promptWritten = writeCandidatePrompt(paths, input.prompt);
  promptWritten.catch(() => undefined);
  let lastPhase: string | undefined;
  const evaluated = evaluateAndRecord(
    paths,
    {
      experiment,
      prompt: input.prompt,
      cases: experiment.cases,
      samples: experiment.config.search.samples,
      sampleBase: input.sampleBase,
      seed: experiment.config.search.seed + input.iteration * 1000 + input.candidate,
    },
    {
      pool: deps.pool,
      signal: deps.signal,
      env: deps.env,
      ...reviewParts(deps),
      onPhase: (phase, progress) => {
        if (phase === 'generating' && progress && progress.done > 0) deps.checkpoint?.('generated');
        // Journal phase changes only — never one event per model call.
        if (phase === lastPhase) return;
        lastPhase = phase;
        // A failed append is kept by the recorder and raised by its next emit.
        recorder
          .emit({ type: 'phase', iteration: input.iteration, phase, candidate: input.candidate })
          .catch(() => undefined);
      },
    },
  );
  let outcome: CandidateOutcome;
  try {
    outcome = await evaluated;
  } catch (error) {
    await promptWritten.catch(() => undefined);
    throw error;
  }
  await promptWritten;
  if (outcome.ok) {
    const { train, holdout, all } = outcome.scores;
    const event: RunEventBody = {
      type: 'candidate_evaluated',
      iteration: input.iteration,
      candidate: input.candidate,
      ...(input.repeat === undefined ? {} : { repeat: input.repeat }),
      scores: { train: toEventScores(train), holdout: toEventScores(holdout), all: toEventScores(all) },
      gateFailure: describeGateFailure(all),
      criteria: clampCriteria(train.criteria),
      costUsd: outcome.costUsd,
    };
    await recorder.emit(event);
  }
  return outcome;
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
