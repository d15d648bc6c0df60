/**
 * The names of the files a judge or grader program reads (docs/design/judge-protocol.md,
 * docs/design/grader-protocol.md, docs/design/prompt-shapes.md): one per output under `outputs/`,
 * and under `judging.inputs` the case's inputs under `inputs/` with the output's number. A
 * protocol, not the judge's or the grader's: both lay their sandboxes out with it,
 * `autoresearch judge`/`grade` read it back, and a user's program relies on it.
 */

export const OUTPUTS_DIR = 'outputs';
export const INPUTS_DIR = 'inputs';

export function outputFileName(index: number, count: number): string {
  const width = Math.max(2, String(Math.max(0, count - 1)).length);
  return `output_${String(index).padStart(width, '0')}.txt`;
}

/** `output_07.txt` → `input_07.txt`: the input behind an output carries its number. */
export function inputFileName(outputFile: string): string {
  return outputFile.replace(/^output_/, 'input_');
}
