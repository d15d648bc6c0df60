/**
 * The working-tree prompt, for `apply` (docs/design/git-layout.md): read it, tell whether it
 * changed since the run started (by the sha256 the run recorded), and replace it atomically. These
 * work with or without git.
 */
import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from '../atomic-file.js';
import { sha256Hex } from '../sha256.js';

async function readBytes(path: string): Promise<Buffer | null> {
  try {
    return await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** The prompt file's text, or null when it does not exist. */
export async function readWorkingPrompt(path: string): Promise<string | null> {
  return (await readBytes(path))?.toString('utf8') ?? null;
}

export type PromptDrift =
  | { status: 'unchanged'; sha256: string }
  | { status: 'changed'; sha256: string }
  | { status: 'missing' };

/** Compare the file's current bytes with the sha256 recorded when the run started. */
export function classifyPromptDrift(current: Uint8Array | null, startSha256: string): PromptDrift {
  if (current === null) return { status: 'missing' };
  const sha256 = sha256Hex(current);
  return { status: sha256 === startSha256.toLowerCase() ? 'unchanged' : 'changed', sha256 };
}

export async function checkPromptDrift(path: string, startSha256: string): Promise<PromptDrift> {
  return classifyPromptDrift(await readBytes(path), startSha256);
}

/** Write via a temporary file and rename, keeping the file's mode, so a crash never leaves half a prompt. */
export async function writePromptAtomically(path: string, text: string): Promise<void> {
  await writeFileAtomic(path, text, { userFile: true });
}
