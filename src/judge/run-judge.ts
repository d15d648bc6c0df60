/**
 * Runs the judge for one evaluation (SPEC 6): the outputs that generated successfully go into
 * a fresh sandbox under neutral, shuffled names with the rubric; the judge program — the
 * built-in `autoresearch judge` or the user's `judge.command` — scores them; the runner
 * validates the file it writes, recomputes every number and maps files back to cases.
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
import { planProgram, type SandboxRunOptions, toSandboxedRun } from '../sandbox/plan-program.js';
import { runProgramAttempts } from '../sandbox/run-attempts.js';
import { type StartedProgram, startSandboxedProgram } from '../sandbox/run-sandboxed-program.js';
import { validateJudgeScores } from './validate-judge-scores.js';

export interface RunJudgeOptions extends SandboxRunOptions {
  /** Successful generations only: a failed one is never sent (SPEC 5). */
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
  /** Checklist criteria's answers, when the judge gave them (SPEC 15). */
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
      /** A panel's members' scores (SPEC 15); the fields above hold their aggregate. */
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

function planJudgeProgram(
  options: Omit<RunJudgeOptions, 'outputs' | 'rubric' | 'seed' | 'started' | 'fresh'>,
) {
  return planProgram(options.judge, {
    builtinArgs: BUILTIN_JUDGE_ARGS,
    timeoutMs: options.timeoutMs ?? DEFAULT_JUDGE_TIMEOUT_MS,
    ...(options.cliEntry === undefined ? {} : { cliEntry: options.cliEntry }),
    ...(options.commandCwd === undefined ? {} : { commandCwd: options.commandCwd }),
    ...(options.client === undefined ? {} : { endpointLimit: options.client.concurrency }),
  });
}

/**
 * Starts the built-in judge while the outputs are still being generated (see
 * startSandboxedProgram), so its start-up is off the evaluation's critical path. Undefined for
 * a judge program of the user's: that one starts when its files are there.
 */
export async function startJudgeEarly(
  options: Omit<RunJudgeOptions, 'outputs' | 'rubric' | 'seed' | 'started' | 'fresh'>,
): Promise<StartedProgram | undefined> {
  if (isProgramEntry(options.judge) || options.client === undefined) return undefined;
  const program = planJudgeProgram(options);
  return startSandboxedProgram({
    argv: program.argv,
    client: options.client,
    resultFile: JUDGE_SCORES_FILE,
    timeoutMs: program.timeoutMs,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.env === undefined ? {} : { env: options.env }),
    ...(options.tmpRoot === undefined ? {} : { tmpRoot: options.tmpRoot }),
    ...(options.isolation === undefined ? {} : { isolation: options.isolation }),
    ...(options.commandCwd === undefined ? {} : { projectDir: options.commandCwd }),
  });
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
  const program = planJudgeProgram(options);
  const run = toSandboxedRun(options, program, layout.files, JUDGE_SCORES_FILE);
  const result = await runProgramAttempts({
    // A program started early has a proxy that may serve the cache: a fresh judging starts its own.
    ...(options.started === undefined || options.fresh !== undefined ? {} : { started: options.started }),
    who: 'judge',
    attempts: options.attempts ?? DEFAULT_JUDGE_ATTEMPTS,
    run: options.fresh === undefined ? run : { ...run, fresh: options.fresh },
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
