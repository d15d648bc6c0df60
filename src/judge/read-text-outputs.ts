/** The `.txt` outputs a standalone judge or grader reads, sorted by file name. */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';

export interface TextOutput {
  file: string;
  text: string;
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

/** `<dir>/*.txt`, or `<dir>/outputs/*.txt` when the folder itself holds none (a sandbox layout). */
export async function readOutputsFolder(dir: string): Promise<TextOutput[]> {
  const direct = await readTxtFiles(dir);
  return direct.length > 0 ? direct : readTxtFiles(join(dir, 'outputs'));
}

/** Everything piped to stdin; '' when stdin is a terminal or nothing was sent. */
export async function readPipedStdin(stdin: NodeJS.ReadStream = process.stdin): Promise<string> {
  if (stdin.isTTY) return '';
  const chunks: Buffer[] = [];
  for await (const chunk of stdin)
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}
