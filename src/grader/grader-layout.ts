/**
 * What the grader sandbox holds (docs/design/grader-protocol.md): the case's outputs under neutral
 * names, the transcript and the expectations; under `judging.inputs`
 * (docs/design/judge-protocol.md) also the case's inputs, one copy beside each output under its
 * number, as the judge gets them. For an agent case each sample's output is its folder
 * `outputs/output_NN/` (src/protocol/output-folder.ts) and `transcript.md` is the agent's own, as its
 * record holds it. Nothing else about the run or the prompt.
 */
import type { ModelEntry } from '../experiment/schema.js';
import { type OutputFolder, planOutputFolder } from '../protocol/output-folder.js';
import {
  INPUTS_DIR,
  inputFileName,
  OUTPUTS_DIR,
  outputFileName,
  outputFolderName,
} from '../protocol/review-files.js';
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
  /** An agent case's sample: graded on its folder and its transcript, not on `text`. */
  agent?: { folder: OutputFolder; transcript: string };
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
  if (isAgentCase(input)) return planAgentGraderFiles(input);
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

/** Every output is an agent case's (docs/design/agent-runs.md): folders and real transcripts. */
export function isAgentCase(input: Pick<GraderCase, 'outputs'>): boolean {
  return input.outputs.length > 0 && input.outputs.every((o) => o.agent !== undefined);
}

function planAgentGraderFiles(input: GraderCase): SandboxFile[] {
  const count = Math.max(0, ...input.outputs.map((o) => o.sample)) + 1;
  const placed = [...input.outputs]
    .sort((a, b) => a.sample - b.sample)
    .map((output) => ({ ...output, folder: outputFolderName(output.sample, count) }));
  const caseInputs = input.input;
  return [
    ...placed.flatMap((o) =>
      o.agent === undefined ? [] : planOutputFolder(`${OUTPUTS_DIR}/${o.folder}`, o.agent.folder),
    ),
    ...(caseInputs === undefined
      ? []
      : placed.map((o) => ({ path: `${INPUTS_DIR}/${inputFileName(o.folder)}`, text: caseInputs }))),
    { path: TRANSCRIPT_FILE, text: agentTranscripts(placed) },
    { path: EXPECTATIONS_FILE, text: `${JSON.stringify(input.expectations, null, 2)}\n` },
  ];
}

/**
 * One sample: its record's transcript.md as it is. Several: each in sample order, after a line
 * naming the sample and its folder.
 */
function agentTranscripts(placed: readonly (GraderCaseOutput & { folder: string })[]): string {
  const [only] = placed;
  if (placed.length === 1 && only !== undefined) return only.agent?.transcript ?? '';
  return placed
    .map(
      (o) =>
        `---\n\nSample ${o.sample}: the agent's transcript; its outputs are in \`${OUTPUTS_DIR}/${o.folder}/\`.\n\n${o.agent?.transcript ?? ''}`,
    )
    .join('\n');
}

/**
 * What a PASS may quote (docs/design/grader-protocol.md): the outputs' files, and for an agent case
 * also its transcripts — the agent's own record, unlike a text case's, which holds the case's vars.
 */
export function graderEvidence(input: GraderCase): { outputs: string[]; transcripts: string[] } {
  if (!isAgentCase(input)) return { outputs: input.outputs.map((o) => o.text), transcripts: [] };
  const files = planGraderFiles(input);
  return {
    outputs: files.filter((f) => f.path.startsWith(`${OUTPUTS_DIR}/`)).map((f) => f.text),
    transcripts: input.outputs.map((o) => o.agent?.transcript ?? ''),
  };
}

/** The generator as the transcript names it: `anthropic / claude-sonnet-4-5`, `sim (simulated)`. */
export function formatModelLabel(entry: ModelEntry): string {
  if (entry.provider === 'sim')
    return `sim${entry.model === undefined ? '' : ` / ${entry.model}`} (simulated)`;
  // A command's argv may hold project paths; the transcript names no paths of the run.
  if (entry.provider === 'command') return 'a local program (provider: command)';
  return entry.model === undefined ? entry.provider : `${entry.provider} / ${entry.model}`;
}
