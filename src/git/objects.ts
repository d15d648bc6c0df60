/**
 * Building one commit that changes the prompt's files (one, or each optimised part's), with
 * plumbing only: the blobs are hashed into the object store, the parent's tree is read into a
 * throw-away index file (never the user's .git/index), the changed entries are replaced, and
 * the tree and commit are written.
 * Nothing here touches the work tree, the index or any ref.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { AutoresearchError } from '../errors.js';
import { tempRoot } from '../temp-root.js';
import { identityConfig } from './identity.js';
import type { GitRepo } from './open-repo.js';

export interface TreeEntry {
  mode: string;
  type: string;
  oid: string;
}

/** The entry at `relativePath` in `commit`'s tree, or null when the path is absent. */
export async function readEntry(
  repo: GitRepo,
  commit: string,
  relativePath: string,
): Promise<TreeEntry | null> {
  // Literal pathspecs: a prompt named `v[1].md` must match only itself.
  const result = await repo.git([
    '--literal-pathspecs',
    'ls-tree',
    '-z',
    '--full-tree',
    commit,
    '--',
    relativePath,
  ]);
  for (const record of result.stdout.split('\0')) {
    const tab = record.indexOf('\t');
    if (tab < 0 || record.slice(tab + 1) !== relativePath) continue;
    const [mode, type, oid] = record.slice(0, tab).split(' ');
    if (mode !== undefined && type !== undefined && oid !== undefined) return { mode, type, oid };
  }
  return null;
}

/**
 * The blob id `text` gets when stored at `relativePath`, with that path's attributes and
 * filters applied (as `git add` would), so an unchanged prompt hashes to HEAD's blob.
 */
export async function hashBlob(
  repo: GitRepo,
  relativePath: string,
  text: string,
  options: { write: boolean },
): Promise<string> {
  const args = ['hash-object', ...(options.write ? ['-w'] : []), `--path=${relativePath}`, '--stdin'];
  return (await repo.git(args, { input: text })).stdout.trim();
}

/** How `text` compares with what `commit` holds at `relativePath`. */
export async function compareWithCommit(
  repo: GitRepo,
  commit: string,
  relativePath: string,
  text: string,
): Promise<'same' | 'modified' | 'untracked'> {
  const entry = await readEntry(repo, commit, relativePath);
  if (entry === null) return 'untracked';
  return entry.oid === (await hashBlob(repo, relativePath, text, { write: false })) ? 'same' : 'modified';
}

function fileMode(entry: TreeEntry | null, relativePath: string): string {
  if (entry === null || entry.mode === '100644' || entry.mode === '100755') return entry?.mode ?? '100644';
  throw new AutoresearchError(
    'E_GIT',
    `${relativePath} is not a regular file in the repository (mode ${entry.mode})`,
    {
      hint: 'the prompt must be a plain file, not a symlink, folder or submodule',
    },
  );
}

async function writeTreeWithBlobs(
  repo: GitRepo,
  parent: string,
  entries: readonly { mode: string; oid: string; path: string }[],
): Promise<string> {
  const scratch = await mkdtemp(path.join(await tempRoot(), 'index-'));
  const indexFile = path.join(scratch, 'index');
  // A split index would leave shared-index files in .git; a private index needs none.
  const config = ['core.splitIndex=false'];
  try {
    await repo.git(['read-tree', parent], { indexFile, config });
    for (const entry of entries)
      await repo.git(['update-index', '--add', '--cacheinfo', entry.mode, entry.oid, entry.path], {
        indexFile,
        config,
      });
    return (await repo.git(['write-tree'], { indexFile, config })).stdout.trim();
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** One file of a commit: its path relative to the repository root and its whole text. */
export interface FileText {
  relativePath: string;
  text: string;
}

/**
 * The tree of `base` with `files` holding their texts (a file `base` already holds exactly is
 * left alone). `changed` lists the paths that differ; with none, `tree` is `base`'s own tree.
 */
export async function treeWithFiles(
  repo: GitRepo,
  base: string,
  files: readonly FileText[],
): Promise<{ tree: string; changed: string[] }> {
  const entries: { mode: string; oid: string; path: string }[] = [];
  for (const { relativePath, text } of files) {
    const entry = await readEntry(repo, base, relativePath);
    const mode = fileMode(entry, relativePath);
    const blob = await hashBlob(repo, relativePath, text, { write: true });
    if (entry?.oid !== blob) entries.push({ mode, oid: blob, path: relativePath });
  }
  const tree =
    entries.length === 0
      ? (await repo.git(['rev-parse', '--verify', '--end-of-options', `${base}^{tree}`])).stdout.trim()
      : await writeTreeWithBlobs(repo, base, entries);
  return { tree, changed: entries.map((e) => e.path) };
}

/** A commit of `tree` with these parents (none: a root commit), by the repository's identity. No ref moves. */
export async function commitTree(
  repo: GitRepo,
  options: { tree: string; parents: readonly string[]; message: string },
): Promise<string> {
  // Unattended commits cannot answer a signing passphrase prompt, so they are never signed.
  const parents = options.parents.flatMap((parent) => ['-p', parent]);
  const commit = await repo.git(['commit-tree', '--no-gpg-sign', ...parents, options.tree], {
    input: options.message,
    config: identityConfig(repo.identity),
  });
  return commit.stdout.trim();
}

/**
 * A commit on top of `parent` whose only changes are `files` holding their texts (a file the
 * parent already holds exactly is left alone); when nothing differs, no commit is made and
 * `sha` is the parent. `changed` lists the paths the commit changes. No ref moves.
 */
export async function commitFiles(
  repo: GitRepo,
  options: { parent: string; files: readonly FileText[]; message: string },
): Promise<{ sha: string; changed: string[] }> {
  const { parent } = options;
  const { tree, changed } = await treeWithFiles(repo, parent, options.files);
  if (changed.length === 0) return { sha: parent, changed: [] };
  const sha = await commitTree(repo, { tree, parents: [parent], message: options.message });
  return { sha, changed };
}
