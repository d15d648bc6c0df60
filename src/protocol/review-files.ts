/**
 * The names of the files a judge or grader program reads (docs/design/judge-protocol.md,
 * docs/design/grader-protocol.md, docs/design/prompt-shapes.md): one per output under `outputs/` (a
 * `.txt` file, or an agent case's folder), and under `judging.inputs` the case's inputs under `inputs/` with the output's number. A
 * protocol, not the judge's or the grader's: both lay their sandboxes out with it,
 * `autoresearch judge`/`grade` read it back, and a user's program relies on it.
 */

export const OUTPUTS_DIR = 'outputs';
export const INPUTS_DIR = 'inputs';

export function outputFileName(index: number, count: number): string {
  const width = Math.max(2, String(Math.max(0, count - 1)).length);
  return `output_${String(index).padStart(width, '0')}.txt`;
}

/**
 * An agent case's output (docs/design/judge-protocol.md "Agent outputs"): the folder
 * `output_NN`, numbered like the text outputs (src/protocol/output-folder.ts lays it out).
 */
export function outputFolderName(index: number, count: number): string {
  return outputFileName(index, count).replace(/\.txt$/, '');
}

/** `output_07.txt` or the folder `output_07` → `input_07.txt`: the input behind an output carries its number. */
export function inputFileName(output: string): string {
  const name = output.replace(/^output_/, 'input_');
  return name.endsWith('.txt') ? name : `${name}.txt`;
}

/** `outputs/output_03/files/a.md` lies in an output folder; `outputs/output_03.txt` does not. */
export function isInOutputFolder(path: string): boolean {
  return new RegExp(`^${OUTPUTS_DIR}/output_\\d+/`).test(path);
}
