/**
 * The files a prompt lives in: the one prompt file, or with several optimised parts
 * (docs/design/prompt-shapes.md) each part's file holding that part's text of the parts document.
 * The baseline commit and every keep write these, so a part that did not change keeps its blob and
 * its file is not in the commit.
 */
import { splitPromptText } from '../experiment/part-texts.js';
import { compareWithCommit, type FileText } from './objects.js';
import type { GitRepo } from './open-repo.js';

export interface PromptLocation {
  /** The prompt file (absolute, or relative to the process's cwd). */
  promptPath: string;
  /** The prompt in full: with `partPaths`, its parts document. */
  promptText: string;
  /** Several optimised parts: each part's file by name, in request order. */
  partPaths?: Record<string, string>;
}

export interface PromptFile extends FileText {
  /** The part the file holds; undefined for a prompt of one part. */
  part?: string;
}

export function promptFiles(repo: GitRepo, location: PromptLocation): PromptFile[] {
  const { partPaths } = location;
  if (partPaths === undefined)
    return [{ relativePath: repo.relativePath(location.promptPath), text: location.promptText }];
  const texts = splitPromptText(location.promptText, Object.keys(partPaths));
  return Object.entries(partPaths).map(([part, path]) => ({
    part,
    relativePath: repo.relativePath(path),
    text: texts[part] as string,
  }));
}

/** The parts whose file at `commit` differs from `files` (as `git add` would store them), in order. */
export async function changedParts(
  repo: GitRepo,
  commit: string,
  files: readonly PromptFile[],
): Promise<string[]> {
  const changed: string[] = [];
  for (const file of files)
    if (
      file.part !== undefined &&
      (await compareWithCommit(repo, commit, file.relativePath, file.text)) !== 'same'
    )
      changed.push(file.part);
  return changed;
}
