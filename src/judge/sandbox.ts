/**
 * The folder a judge or grader process runs in (SPEC 6): a fresh directory with a neutral
 * name in this process's temporary folder (src/temp-root.ts, under the OS temp dir),
 * holding only the files given, and a separate empty folder to serve as its HOME. Both are
 * removed afterwards, whatever happened; after a crash, by the next runner.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, normalize, sep } from 'node:path';
import type { SandboxFile } from './judge-layout.js';
import { tempRoot } from '../temp-root.js';

export interface Sandbox {
  /** The process's cwd. */
  dir: string;
  /** The process's HOME: empty, outside `dir`. */
  home: string;
  remove(): Promise<void>;
}

function assertInside(path: string): void {
  const normalised = normalize(path);
  if (isAbsolute(normalised) || normalised === '..' || normalised.startsWith(`..${sep}`)) {
    throw new Error(`sandbox file path must stay inside the sandbox: ${path}`);
  }
}

export async function createSandbox(
  files: readonly SandboxFile[],
  options: { tmpRoot?: string } = {},
): Promise<Sandbox> {
  const root = options.tmpRoot ?? (await tempRoot());
  const dir = await mkdtemp(join(root, 'ws-'));
  let home: string | undefined;
  const remove = async () => {
    await rm(dir, { recursive: true, force: true });
    if (home !== undefined) await rm(home, { recursive: true, force: true });
  };
  try {
    home = await mkdtemp(join(root, 'h-'));
    await writeSandboxFiles(dir, files);
  } catch (error) {
    await remove();
    throw error;
  }
  return { dir, home, remove };
}

/** Puts the files in a sandbox folder (paths relative to it; nothing may point outside). */
export async function writeSandboxFiles(dir: string, files: readonly SandboxFile[]): Promise<void> {
  for (const file of files) assertInside(file.path);
  const folders = new Set(files.map((file) => dirname(join(dir, file.path))));
  for (const folder of folders) await mkdir(folder, { recursive: true });
  // Side by side: the judge is waiting for them.
  await Promise.all(files.map((file) => writeFile(join(dir, file.path), file.text, 'utf8')));
}
