/**
 * The built-in grader's work (docs/design/grader-protocol.md): one model call over the
 * expectations, the transcript, the case's inputs when its folder holds them
 * (docs/design/prompt-shapes.md) and the case's outputs; a strict JSON reply that keeps every
 * expectation's text, retried when malformed; every PASS checked against the outputs (and an agent
 * case's transcript) before anything is written.
 */
import { buildGraderUserMessage, GradingFile } from '../protocol/grading.js';
import { DEFAULT_REPLY_ATTEMPTS, parseModelJson } from '../parse-model-json.js';
import type { CompletionModel, CompletionRequest } from '../providers/types.js';
import { graderSystemPrompt } from './grader-prompt.js';
import { type VerifiedGrading, verifyGrading } from './verify-grading.js';

export interface BuiltinGraderInput {
  expectations: readonly string[];
  transcript: string;
  /** File names as the transcript names them (e.g. `outputs/output_00.txt`). */
  outputs: readonly { file: string; text: string }[];
  /** The case's inputs files (`inputs/input_NN.txt`), when the grader is given them. */
  inputs?: readonly { file: string; text: string }[];
  /**
   * An agent case (docs/design/grader-protocol.md "Agent cases"): the outputs are the files of its
   * output folders and the transcript is the agent's own, evidence like them.
   */
  agent?: boolean;
  model: CompletionModel;
  /** Tries when the reply is malformed or changes the expectations (default 3). */
  maxAttempts?: number;
  signal?: AbortSignal;
}

export type BuiltinGraderResult =
  | { ok: true; grading: VerifiedGrading; simulated: boolean }
  | { ok: false; message: string };

/**
 * The built-in grader's one call for a case; also what a batch submits in its place
 * (docs/design/cost-engine.md), so the grader finds the answer cached.
 */
export function builtinGraderRequest(
  input: Pick<BuiltinGraderInput, 'expectations' | 'transcript' | 'outputs' | 'inputs' | 'agent'>,
): CompletionRequest {
  return {
    system: graderSystemPrompt(input.inputs !== undefined, input.agent === true),
    messages: [
      {
        role: 'user',
        content: buildGraderUserMessage({
          expectations: [...input.expectations],
          transcript: input.transcript,
          outputs: [...input.outputs],
          ...(input.inputs === undefined ? {} : { inputs: [...input.inputs] }),
        }),
      },
    ],
    // The instructions are the same for every case: the prompt cache's prefix
    // (docs/design/cost-engine.md).
    cacheable: { lead: 0 },
  };
}

export async function runBuiltinGrader(input: BuiltinGraderInput): Promise<BuiltinGraderResult> {
  const request: CompletionRequest = {
    ...builtinGraderRequest(input),
    ...(input.signal === undefined ? {} : { signal: input.signal }),
  };
  const attempts = input.maxAttempts ?? DEFAULT_REPLY_ATTEMPTS;
  const texts = input.outputs.map((o) => o.text);
  let problem = '';
  for (let attempt = 1; attempt <= attempts; attempt += 1) {
    let result: Awaited<ReturnType<CompletionModel['complete']>>;
    try {
      // A retry asks the model again: its cached entry holds the reply just found unusable.
      result = await input.model.complete(attempt === 1 ? request : { ...request, refresh: true });
    } catch (error) {
      return { ok: false, message: error instanceof Error ? error.message : String(error) };
    }
    const parsed = parseModelJson(result.text, GradingFile);
    if (!parsed.ok) {
      problem = parsed.problem;
      continue;
    }
    const checked = verifyGrading(parsed.value, {
      expectations: input.expectations,
      outputs: texts,
      ...(input.agent === true ? { transcripts: [input.transcript] } : {}),
    });
    if (checked.ok) return { ok: true, grading: checked.grading, simulated: result.simulated === true };
    problem = checked.problems.join('; ');
  }
  return { ok: false, message: `no usable reply after ${attempts} tries: ${problem}` };
}

/** `GRADE pass_rate=0.6667 (2/3 passed)` */
export function formatGradeLine(grading: VerifiedGrading): string {
  const { summary } = grading;
  return `GRADE pass_rate=${summary.pass_rate.toFixed(4)} (${summary.passed}/${summary.total} passed)`;
}
