/**
 * The folder a judge or grader process runs in (docs/design/judge-protocol.md): a fresh directory
 * with a neutral name holding only the files given, and a separate empty folder to serve as its
 * HOME, both inside a private folder (mode 0700) of this sandbox's own in this process's temporary
 * folder (src/temp-root.ts): the sandbox is never beside prompt files or other sandboxes.
 * Under `os` isolation the model proxy's Unix socket lives there too. All removed
 * afterwards, whatever happened; after a crash, by the next runner.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, normalize, sep } from 'node:path';
import { tempRoot } from '../temp-root.js';

/** A file the program is given. */
export interface SandboxFile {
  /** Relative to the sandbox root, with `/` separators. */
  path: string;
  text: string;
}

export interface Sandbox {
  /** The process's cwd: a fresh folder inside `root`, or the caller's workspace. */
  dir: string;
  /** The process's HOME: empty, outside `dir`. */
  home: string;
  /** The private folder holding both (and the proxy's socket under `os` isolation). */
  root: string;
  remove(): Promise<void>;
}

function assertInside(path: string): void {
  const normalised = normalize(path);
  if (isAbsolute(normalised) || normalised === '..' || normalised.startsWith(`..${sep}`)) {
    throw new Error(`sandbox file path must stay inside the sandbox: ${path}`);
  }
}

export interface SandboxOptions {
  tmpRoot?: string;
  /**
   * An existing folder (absolute) to be the cwd instead of a fresh one: the files given are
   * written into it, and it is the caller's, left in place by remove().
   */
  workspace?: string;
}

export async function createSandbox(
  files: readonly SandboxFile[],
  options: SandboxOptions = {},
): Promise<Sandbox> {
  if (options.workspace !== undefined && !isAbsolute(options.workspace)) {
    throw new Error(`a sandbox workspace must be an absolute path: ${options.workspace}`);
  }
  // mkdtemp makes it 0700.
  const root = await mkdtemp(join(options.tmpRoot ?? (await tempRoot()), 'sbx-'));
  const remove = () => rm(root, { recursive: true, force: true });
  try {
    const dir = options.workspace ?? (await mkdtemp(join(root, 'ws-')));
    const home = await mkdtemp(join(root, 'h-'));
    await writeSandboxFiles(dir, files);
    return { dir, home, root, remove };
  } catch (error) {
    await remove();
    throw error;
  }
}

/** Puts the files in a sandbox folder (paths relative to it; nothing may point outside). */
export async function writeSandboxFiles(dir: string, files: readonly SandboxFile[]): Promise<void> {
  for (const file of files) assertInside(file.path);
  const folders = new Set(files.map((file) => dirname(join(dir, file.path))));
  for (const folder of folders) await mkdir(folder, { recursive: true });
  // Side by side: the judge is waiting for them.
  await Promise.all(files.map((file) => writeFile(join(dir, file.path), file.text, 'utf8')));
}
