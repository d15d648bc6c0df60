/**
 * What the judge sandbox holds (docs/design/judge-protocol.md): one neutrally named file per (case,
 * sample) in a seeded shuffled order, and the rubric; under `judging.inputs`
 * (docs/design/judge-protocol.md) also the case's inputs behind each output, under the output's
 * number. The file → (case, sample) map stays with the runner.
 */
import * as z from 'zod';
import { INPUTS_DIR, inputFileName, OUTPUTS_DIR, outputFileName } from '../protocol/review-files.js';
import type { SandboxFile } from '../sandbox/sandbox.js';
import { shuffleSeeded } from './seeded-shuffle.js';

export interface JudgeOutput {
  caseId: string;
  sample: number;
  text: string;
  /** The case's inputs file (src/protocol/case-inputs.ts), only under `judging.inputs: true`. */
  input?: string;
}

export const JudgeMapEntry = z.object({
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
    const file = outputFileName(index, shuffled.length);
    map.push({ file, case_id: output.caseId, sample: output.sample });
    files.push({ path: `${OUTPUTS_DIR}/${file}`, text: output.text });
    if (output.input !== undefined)
      files.push({ path: `${INPUTS_DIR}/${inputFileName(file)}`, text: output.input });
  });
  files.push({ path: RUBRIC_FILE, text: rubricText });
  return { files, map };
}
