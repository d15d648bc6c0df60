/**
 * Runs the judge for one evaluation (docs/design/judge-protocol.md): the outputs that generated
 * successfully go into a fresh sandbox under neutral, shuffled names with the rubric; the judge
 * program — the built-in `autoresearch judge` or the user's `judge.command` — scores them; the
 * runner validates the file it writes, recomputes every number and maps files back to cases.
 * Anything invalid is retried, then reported as a `judge_error`: never a score.
 */
import { isProgramEntry } from '../experiment/program-entry.js';
import type { JudgeEntry } from '../experiment/schema.js';
import type { Rubric } from '../experiment/types.js';
import { OUTPUTS_DIR } from '../protocol/review-files.js';
import type { ProviderError } from '../providers/types.js';
import type { ChecklistAnswers } from '../scoring/types.js';
import {
  type JudgeMapEntry,
  type JudgeMapFile,
  type JudgeOutput,
  planJudgeLayout,
  RUBRIC_FILE,
} from './judge-layout.js';
import { JUDGE_SCORES_FILE } from './judge-scores.js';
import type { PanelScores } from './panel-scores.js';
import {
  runInSandbox,
  type SandboxRunOptions,
  type SandboxStart,
  startInSandbox,
} from '../sandbox/run-in-sandbox.js';
import type { StartedProgram } from '../sandbox/run-sandboxed-program.js';
import { validateJudgeScores } from './validate-judge-scores.js';

export interface RunJudgeOptions extends SandboxRunOptions {
  /** Successful generations only: a failed one is never sent (docs/design/checks.md). */
  outputs: readonly JudgeOutput[];
  rubric: Rubric;
  judge: JudgeEntry;
  /** Seeds the shuffle of file names. */
  seed: number;
  /** The built-in judge, already started by startJudgeEarly, for the first attempt. */
  started?: StartedProgram;
  /** Every model call a new sample, never the cache's (judge.ts JudgeRequest.fresh). */
  fresh?: { sampleBase: number };
}

export interface JudgedOutput {
  caseId: string;
  sample: number;
  /** The neutral file name the judge saw. */
  file: string;
  /** Per criterion, 1..5 (the mean over the judge's samples). */
  criteria: Record<string, number>;
  samples?: Record<string, number>[];
  reasoning: string;
  /** Checklist criteria's answers, when the judge gave them (docs/design/judge-reliability.md). */
  items?: ChecklistAnswers;
}

export type JudgeRunResult =
  | {
      ok: true;
      perOutput: JudgedOutput[];
      criteriaAverages: Record<string, number>;
      qualityScore: number;
      /** The judge's file as it wrote it (its own arithmetic included, unused). */
      raw: unknown;
      /** For `judge-map.json` in the run record. */
      map: JudgeMapFile;
      attempts: number;
      /**
       * A panel's members' scores (docs/design/judge-reliability.md); the fields above hold their
       * aggregate.
       */
      panel?: PanelScores;
    }
  | {
      ok: false;
      kind: 'judge_error';
      message: string;
      attempts: number;
      /** A model failure behind it that stops the run (auth, credit) or an abort. */
      providerError?: ProviderError;
    };

export const DEFAULT_JUDGE_TIMEOUT_MS = 20 * 60 * 1000;
export const DEFAULT_JUDGE_ATTEMPTS = 2;

const BUILTIN_JUDGE_ARGS = ['judge', OUTPUTS_DIR, '--rubric', RUBRIC_FILE];

type JudgeStartOptions = Omit<RunJudgeOptions, 'outputs' | 'rubric' | 'seed' | 'started' | 'fresh'>;

/** The judge's program as the sandbox starts it. */
function judgeStart(options: JudgeStartOptions): SandboxStart {
  return {
    ...options,
    program: { entry: options.judge, builtinArgs: BUILTIN_JUDGE_ARGS },
    resultFile: JUDGE_SCORES_FILE,
    timeoutMs: options.timeoutMs ?? DEFAULT_JUDGE_TIMEOUT_MS,
  };
}

/**
 * Starts the built-in judge while the outputs are still being generated (startInSandbox), so
 * its start-up is off the evaluation's critical path. Undefined for a judge program of the
 * user's: that one starts when its files are there.
 */
export function startJudgeEarly(options: JudgeStartOptions): Promise<StartedProgram | undefined> {
  return startInSandbox(judgeStart(options));
}

/** A judge started early (`started`) runs the first attempt, or is stopped whatever happens. */
export async function runJudge(options: RunJudgeOptions): Promise<JudgeRunResult> {
  try {
    return await judgeOutputs(options);
  } finally {
    // A no-op once the first attempt has used it.
    await options.started?.cancel();
  }
}

async function judgeOutputs(options: RunJudgeOptions): Promise<JudgeRunResult> {
  const { outputs, rubric } = options;
  if (outputs.length === 0) {
    return { ok: false, kind: 'judge_error', message: 'there are no outputs to judge', attempts: 0 };
  }
  if (!isProgramEntry(options.judge) && options.client === undefined) {
    throw new Error('runJudge: a model judge needs the run’s judge client');
  }
  const layout = planJudgeLayout(outputs, rubric.text, options.seed);
  const expected = { files: layout.map.map((m) => m.file), criteria: rubric.criteria.map((c) => c.key) };
  const result = await runInSandbox({
    ...judgeStart(options),
    files: layout.files,
    who: 'judge',
    attempts: options.attempts ?? DEFAULT_JUDGE_ATTEMPTS,
    ...(options.started === undefined ? {} : { started: options.started }),
    ...(options.fresh === undefined ? {} : { fresh: options.fresh }),
    accept: (json) => {
      const checked = validateJudgeScores(json, expected);
      return checked.ok ? { ok: true, value: checked } : { ok: false, problem: checked.problems.join('; ') };
    },
  });
  if (!result.ok) return { kind: 'judge_error', ...result };
  const origins = new Map(layout.map.map((m) => [m.file, m]));
  const perOutput = result.value.outputs.map((scored): JudgedOutput => {
    const origin = origins.get(scored.file) as JudgeMapEntry;
    return { caseId: origin.case_id, sample: origin.sample, ...scored };
  });
  return {
    ok: true,
    perOutput,
    criteriaAverages: result.value.criteriaAverages,
    qualityScore: result.value.qualityScore,
    raw: result.raw,
    map: layout.map,
    attempts: result.attempts,
  };
}
