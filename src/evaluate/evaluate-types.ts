/**
 * The evaluation stage's shapes, in one module that imports no stage: what an evaluation is
 * asked (EvaluateInput; EvaluateRequest at the entry, evaluate.ts), the parts it is given
 * (EvaluateDeps), and what it yields (CandidateOutcome; EvaluationResult at the entry). Every
 * stage file and every caller reads them from here, so no stage imports the evaluation back.
 */
import type { AgentCaseRecord } from '../agent/agent-record.js';
import type { AgentEndReason, RunAgent } from '../agent/agent-run.js';
import type { AgentToolCall } from '../agent/agent-tool-calls.js';
import type { Case, Experiment } from '../experiment/types.js';
import type { OutputFolder } from '../protocol/output-folder.js';
import type { Grader } from '../grader/grader.js';
import type { Judge, JudgeResult } from '../judge/judge.js';
import type { VerifiedGrading } from '../grader/verify-grading.js';
import type { BatchCall } from '../providers/batch/batch-runner.js';
import type { ModelPool } from '../providers/model-pool.js';
import type { ToolCall } from '../providers/types.js';
import type { SampleChecks } from '../checks/check-result.js';
import type { Phase, RunEventBody } from '../run/events.js';
import type { CandidatePaths } from '../run/paths.js';
import type { CandidateResult } from './candidate-result.js';

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
  /** The generator's client. */
  pool: ModelPool;
  /** Needed when the experiment has a rubric and a judge model. */
  judge?: Judge;
  /** Needed when the experiment has a grader and a case has expectations. */
  grader?: Grader;
  signal?: AbortSignal;
  onPhase?: (phase: Phase, progress?: { done: number; total: number }) => void;
  env?: NodeJS.ProcessEnv;
  /** Each output as it is generated (the record writer starts its file). */
  onGenerated?: (generation: Generation) => void;
  /** Every output's checks, once all are done (before the judge runs). */
  onChecked?: (checks: readonly SampleChecks[]) => void;
  /**
   * `--batch` (docs/design/cost-engine.md): answers these calls through the provider's batch API
   * into the cache before the stage makes them, so the stage then finds them there.
   */
  batch?: (calls: readonly BatchCall[], phase: Phase) => Promise<void>;
  /** Needed when the experiment is an agent experiment (docs/design/agent-runs.md): who runs its cases. */
  agent?: RunAgent;
  /** Where each agent case's record goes (`agent/<case-id>.<sample>/` of the candidate's folder). */
  agentRecordDir?: (caseId: string, sample: number) => string;
  /** The run's cache of agents' model answers (`agent-cache/`), so a resumed case pays for no call twice. */
  agentCacheDir?: string;
}

/** One output of the generator (or its failure). */
export interface Generation {
  caseId: string;
  sample: number;
  ok: boolean;
  text: string;
  /**
   * The calls the model made in its answer (docs/design/prompt-shapes.md); absent when it made
   * none.
   */
  toolCalls?: ToolCall[];
  error?: string;
  stopReason?: string;
  cached: boolean;
  /**
   * An agent case's end (docs/design/agent-runs.md); its full record is agent.json. The folder is
   * what the judge and grader see of its output, the transcript what the grader reads
   * (docs/design/judge-protocol.md "Agent outputs").
   */
  agent?: {
    endReason: AgentEndReason;
    turns: number;
    files: number;
    folder: OutputFolder;
    transcript: string;
    /** The case's agent.json: what the checks on its run read (src/checks/agent/agent-evidence.ts). */
    record: AgentCaseRecord;
    toolCalls: readonly AgentToolCall[];
  };
}

export type JudgeSuccess = Extract<JudgeResult, { ok: true }>;

export interface GradedCase {
  caseId: string;
  raw: unknown;
  grading: VerifiedGrading;
}

/** The candidate's result, with what the record folder shows beside it. */
export interface EvaluatedCandidate extends CandidateResult {
  ok: true;
  generations: Generation[];
  judge?: JudgeSuccess;
  gradings: GradedCase[];
}

export interface FailedCandidate {
  ok: false;
  errorKind: 'judge_error' | 'grader_error';
  message: string;
  generations: Generation[];
  costUsd: number;
}

export type CandidateOutcome = EvaluatedCandidate | FailedCandidate;

/**
 * Screening (docs/design/paired-acceptance.md): the request's `cases` are the minibatch; `rest` is
 * evaluated into the same record only when `proceed` says so of the minibatch's result.
 */
export interface ScreenStage {
  rest: readonly Case[];
  proceed: (first: EvaluatedCandidate) => boolean;
}

/** Where a journaled evaluation's events go, and under which candidate of which iteration. */
export interface CandidateJournal {
  /** Appends to the run's journal (the recorder's emit). */
  append: (event: RunEventBody) => Promise<void>;
  iteration: number;
  candidate: number;
  repeat?: number;
}

/** What the one entry (evaluate.ts) is asked: a candidate, its record folder, and how to stage and journal it. */
export interface EvaluateRequest extends EvaluateInput {
  /** The record folder: prompt.md, every output, checks, judge scores, gradings, evaluation.json. */
  paths: CandidatePaths;
  screen?: ScreenStage;
  /** Phase changes and `candidate_evaluated`; without it, nothing is journaled. */
  journal?: CandidateJournal;
}

export interface EvaluationResult {
  outcome: CandidateOutcome;
  /** Whether the rest was evaluated (always, without screening). */
  proceeded: boolean;
  /** Under screening: the minibatch's own result (undefined when it failed). */
  firstStage?: EvaluatedCandidate;
}
