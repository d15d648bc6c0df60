/** The `.txt` outputs a standalone judge or grader reads, sorted by file name. */
import { readdir, readFile, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { INPUTS_DIR, inputFileName, OUTPUTS_DIR } from '../protocol/review-files.js';

export interface TextOutput {
  file: string;
  text: string;
  /**
   * The paired `inputs/input_NN.txt` of an `output_NN.txt` (docs/design/judge-protocol.md), when
   * there is one.
   */
  input?: string;
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

export async function readTxtFiles(dir: string): Promise<TextOutput[]> {
  if (!(await isDirectory(dir))) return [];
  const names = (await readdir(dir, { withFileTypes: true }))
    .filter((d) => d.isFile() && d.name.toLowerCase().endsWith('.txt'))
    .map((d) => d.name)
    .sort();
  return Promise.all(names.map(async (file) => ({ file, text: await readFile(join(dir, file), 'utf8') })));
}

/**
 * `<dir>/*.txt`, or `<dir>/outputs/*.txt` when the folder itself holds none (a sandbox layout);
 * each `output_NN.txt` with its `input_NN.txt` from the `inputs/` folder beside the outputs'.
 */
export async function readOutputsFolder(dir: string): Promise<TextOutput[]> {
  const direct = await readTxtFiles(dir);
  if (direct.length > 0) return pairInputs(direct, join(dirname(dir), INPUTS_DIR));
  return pairInputs(await readTxtFiles(join(dir, OUTPUTS_DIR)), join(dir, INPUTS_DIR));
}

async function pairInputs(outputs: TextOutput[], inputsDir: string): Promise<TextOutput[]> {
  const inputs = new Map((await readTxtFiles(inputsDir)).map((f) => [f.file, f.text]));
  return outputs.map((output) => {
    const input = output.file.startsWith('output_') ? inputs.get(inputFileName(output.file)) : undefined;
    return input === undefined ? output : { ...output, input };
  });
}

/** Everything piped to stdin; '' when stdin is a terminal or nothing was sent. */
export async function readPipedStdin(stdin: NodeJS.ReadStream = process.stdin): Promise<string> {
  if (stdin.isTTY) return '';
  const chunks: Buffer[] = [];
  for await (const chunk of stdin)
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}
