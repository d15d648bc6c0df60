/**
 * The outputs a standalone judge or grader reads, sorted by name: `.txt` files, and an agent
 * experiment's output folders `output_NN/` (src/protocol/output-folder.ts).
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { type OutputFolder, presentOutputFolder, readOutputFolder } from '../protocol/output-folder.js';
import { INPUTS_DIR, inputFileName, OUTPUTS_DIR } from '../protocol/review-files.js';

export interface TextOutput {
  /** `output_NN.txt`, or `output_NN` for a folder. */
  file: string;
  /** A folder's is its presentation to a model. */
  text: string;
  folder?: OutputFolder;
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
 * A grader's outputs: `<dir>/*.txt`, and every file inside its `output_NN/` folders, each named by
 * its path under `prefix` (e.g. `outputs/output_00/files/a.md`), all sorted by that name.
 */
export async function readGraderOutputFiles(dir: string, prefix: string): Promise<TextOutput[]> {
  const found = (await readTxtFiles(dir)).map((o) => ({ file: `${prefix}/${o.file}`, text: o.text }));
  const walk = async (at: string, name: string): Promise<void> => {
    for (const entry of await readdir(at, { withFileTypes: true })) {
      const path = `${name}/${entry.name}`;
      if (entry.isDirectory()) await walk(join(at, entry.name), path);
      else if (entry.isFile()) found.push({ file: path, text: await readFile(join(at, entry.name), 'utf8') });
    }
  };
  if (await isDirectory(dir))
    for (const entry of await readdir(dir, { withFileTypes: true }))
      if (entry.isDirectory() && /^output_\d+$/.test(entry.name))
        await walk(join(dir, entry.name), `${prefix}/${entry.name}`);
  return found.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}

/** `<dir>/output_NN/` folders, each read as an agent case's output. */
export async function readOutputFolders(dir: string): Promise<TextOutput[]> {
  if (!(await isDirectory(dir))) return [];
  const names = (await readdir(dir, { withFileTypes: true }))
    .filter((d) => d.isDirectory() && /^output_\d+$/.test(d.name))
    .map((d) => d.name)
    .sort();
  return Promise.all(
    names.map(async (file) => {
      const folder = await readOutputFolder(join(dir, file));
      return { file, text: presentOutputFolder(folder), folder };
    }),
  );
}

async function readOutputs(dir: string): Promise<TextOutput[]> {
  const all = [...(await readTxtFiles(dir)), ...(await readOutputFolders(dir))];
  return all.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}

/**
 * `<dir>/*.txt` and `<dir>/output_NN/`, or those of `<dir>/outputs/` when the folder itself holds
 * none (a sandbox layout); each output with its `input_NN.txt` from the `inputs/` folder beside the
 * outputs'.
 */
export async function readOutputsFolder(dir: string): Promise<TextOutput[]> {
  const direct = await readOutputs(dir);
  if (direct.length > 0) return pairInputs(direct, join(dirname(dir), INPUTS_DIR));
  return pairInputs(await readOutputs(join(dir, OUTPUTS_DIR)), join(dir, INPUTS_DIR));
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
