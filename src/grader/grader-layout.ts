/**
 * What the grader sandbox holds (docs/design/grader-protocol.md): the case's outputs under neutral
 * names, the transcript and the expectations; under `judging.inputs`
 * (docs/design/judge-protocol.md) also the case's inputs, one copy beside each output under its
 * number, as the judge gets them. Nothing else about the run or the prompt.
 */
import type { ModelEntry } from '../experiment/schema.js';
import { INPUTS_DIR, inputFileName, OUTPUTS_DIR, outputFileName } from '../protocol/review-files.js';
import type { SandboxFile } from '../sandbox/sandbox.js';
import { buildTranscript } from './transcript.js';

export const GRADING_FILE = 'grading.json';
export const EXPECTATIONS_FILE = 'expectations.json';
export const TRANSCRIPT_FILE = 'transcript.md';
export const NO_TRANSCRIPT = '(no transcript was provided)';

export interface GraderCaseOutput {
  sample: number;
  text: string;
  stopReason?: string;
}

export interface GraderCase {
  expectations: readonly string[];
  vars: Readonly<Record<string, string>>;
  /** The generator, e.g. `anthropic / claude-sonnet-4-5`. */
  model: string;
  /** Successful generations only. */
  outputs: readonly GraderCaseOutput[];
  /** The case's inputs file (src/protocol/case-inputs.ts), only under `judging.inputs: true`. */
  input?: string;
}

export function planGraderFiles(input: GraderCase): SandboxFile[] {
  const count = Math.max(0, ...input.outputs.map((o) => o.sample)) + 1;
  const placed = input.outputs.map((output) => {
    const file = outputFileName(output.sample, count);
    return { ...output, file, path: `${OUTPUTS_DIR}/${file}` };
  });
  const caseInputs = input.input;
  return [
    ...placed.map((o) => ({ path: o.path, text: o.text })),
    ...(caseInputs === undefined
      ? []
      : placed.map((o) => ({ path: `${INPUTS_DIR}/${inputFileName(o.file)}`, text: caseInputs }))),
    {
      path: TRANSCRIPT_FILE,
      text: buildTranscript({ vars: input.vars, model: input.model, outputs: placed }),
    },
    { path: EXPECTATIONS_FILE, text: `${JSON.stringify(input.expectations, null, 2)}\n` },
  ];
}

/** The generator as the transcript names it: `anthropic / claude-sonnet-4-5`, `sim (simulated)`. */
export function formatModelLabel(entry: ModelEntry): string {
  if (entry.provider === 'sim')
    return `sim${entry.model === undefined ? '' : ` / ${entry.model}`} (simulated)`;
  // A command's argv may hold project paths; the transcript names no paths of the run.
  if (entry.provider === 'command') return 'a local program (provider: command)';
  return entry.model === undefined ? entry.provider : `${entry.provider} / ${entry.model}`;
}
