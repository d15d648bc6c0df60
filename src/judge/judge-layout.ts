/**
 * What the judge sandbox holds (docs/design/judge-protocol.md): one neutrally named output per
 * (case, sample) in a seeded shuffled order, and the rubric — a text output as `output_NN.txt`, an
 * agent case's as the folder `output_NN/` (src/protocol/output-folder.ts); under `judging.inputs`
 * (docs/design/judge-protocol.md) also the case's inputs behind each output, under the output's
 * number. The name → (case, sample) map stays with the runner.
 */
import * as z from 'zod';
import { type OutputFolder, planOutputFolder } from '../protocol/output-folder.js';
import {
  INPUTS_DIR,
  inputFileName,
  OUTPUTS_DIR,
  outputFileName,
  outputFolderName,
} from '../protocol/review-files.js';
import type { SandboxFile } from '../sandbox/sandbox.js';
import { shuffleSeeded } from './seeded-shuffle.js';

export interface JudgeOutput {
  caseId: string;
  sample: number;
  /** What the checks saw; the judge's file for a text output. */
  text: string;
  /** An agent case's output (docs/design/judge-protocol.md "Agent outputs"): judged as this folder. */
  folder?: OutputFolder;
  /** The case's inputs file (src/protocol/case-inputs.ts), only under `judging.inputs: true`. */
  input?: string;
}

export const JudgeMapEntry = z.object({
  /** `output_NN.txt`, or `output_NN` for an agent case's folder. */
  file: z.string(),
  case_id: z.string(),
  sample: z.number().int().min(0),
});
export type JudgeMapEntry = z.infer<typeof JudgeMapEntry>;

/** `judge-map.json` in the run record; the judge never sees it. */
export const JudgeMapFile = z.array(JudgeMapEntry);
export type JudgeMapFile = z.infer<typeof JudgeMapFile>;

export interface JudgeLayout {
  files: SandboxFile[];
  /** Sorted by file name. */
  map: JudgeMapFile;
}

export const RUBRIC_FILE = 'rubric.md';

export function planJudgeLayout(
  outputs: readonly JudgeOutput[],
  rubricText: string,
  seed: number,
): JudgeLayout {
  const shuffled = shuffleSeeded(outputs, seed);
  const map: JudgeMapFile = [];
  const files: SandboxFile[] = [];
  shuffled.forEach((output, index) => {
    const folder = output.folder;
    const file =
      folder === undefined
        ? outputFileName(index, shuffled.length)
        : outputFolderName(index, shuffled.length);
    map.push({ file, case_id: output.caseId, sample: output.sample });
    if (folder === undefined) files.push({ path: `${OUTPUTS_DIR}/${file}`, text: output.text });
    else files.push(...planOutputFolder(`${OUTPUTS_DIR}/${file}`, folder));
    if (output.input !== undefined)
      files.push({ path: `${INPUTS_DIR}/${inputFileName(file)}`, text: output.input });
  });
  files.push({ path: RUBRIC_FILE, text: rubricText });
  return { files, map };
}
