/**
 * An agent case's workspace as the agent left it, for checks with `file:` and `file-exists`
 * (docs/design/checks.md "Checks on an agent's files and actions"), rebuilt without the workspace
 * (which is gone once the case is recorded): the files the agent created, changed or deleted come
 * from its record, every other path from the fixture folders it started from (the case's own over
 * the shared ones, as the workspace was made). `.git/` is not part of it.
 */
import { lstat, readFile, readlink } from 'node:fs/promises';
import { join, posix } from 'node:path';
import picomatch from 'picomatch';
import { snapshotFolder } from '../../agent/folder-snapshot.js';

/** What one path holds at the end of the case. */
export type WorkspaceFile =
  | { state: 'text'; text: string }
  /** It exists, but its content is not known as text (a link, a binary or too large a file). */
  | { state: 'unreadable'; reason: string }
  | { state: 'missing'; deleted: boolean };

/** A path the agent created, changed or deleted, as its record lists it; `text` when it was kept. */
export interface LeftEntry {
  path: string;
  status: 'created' | 'changed' | 'deleted';
  kind: 'file' | 'link' | 'other';
  target?: string;
  skipped?: string;
  text?: string;
}

export interface FinishedWorkspace {
  read(path: string): Promise<WorkspaceFile>;
  /** The paths that exist at the end and match `pattern` (a path or a glob), sorted. */
  match(pattern: string): Promise<string[]>;
}

/** `./notes/a.md` → `notes/a.md`: paths as the record writes them. */
export function normaliseWorkspacePath(path: string): string {
  return posix.normalize(path.replaceAll('\\', '/')).replace(/^(?:\.\/)+/, '');
}

export function isGlob(pattern: string): boolean {
  return picomatch.scan(pattern).isGlob;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

async function readFixture(dir: string, path: string): Promise<WorkspaceFile | undefined> {
  const full = join(dir, path);
  const info = await lstat(full).catch(() => undefined);
  if (info === undefined) return undefined;
  if (info.isSymbolicLink()) return { state: 'unreadable', reason: `a link to ${await readlink(full)}` };
  if (!info.isFile()) return { state: 'unreadable', reason: 'not a regular file' };
  try {
    return { state: 'text', text: utf8.decode(await readFile(full)) };
  } catch {
    return { state: 'unreadable', reason: 'not UTF-8 text' };
  }
}

/**
 * `left`: the record's file list with the kept texts; `fixtures`: the folders the workspace was
 * made from, in the order they were copied (shared, then the case's).
 */
export function finishedWorkspace(
  left: readonly LeftEntry[],
  fixtures: readonly string[],
): FinishedWorkspace {
  const byPath = new Map(left.map((entry) => [entry.path, entry]));
  let fixturePaths: Promise<Set<string>> | undefined;
  const allFixturePaths = () => {
    fixturePaths ??= Promise.all(fixtures.map((dir) => snapshotFolder(dir).catch(() => undefined))).then(
      (snapshots) => new Set(snapshots.flatMap((s) => (s === undefined ? [] : [...s.entries.keys()]))),
    );
    return fixturePaths;
  };
  return {
    async read(path) {
      const key = normaliseWorkspacePath(path);
      const entry = byPath.get(key);
      if (entry !== undefined) {
        if (entry.status === 'deleted') return { state: 'missing', deleted: true };
        if (entry.text !== undefined) return { state: 'text', text: entry.text };
        if (entry.kind === 'link') return { state: 'unreadable', reason: `a link to ${entry.target ?? '?'}` };
        return { state: 'unreadable', reason: `its content was not kept: ${entry.skipped ?? entry.kind}` };
      }
      // The case's fixtures were copied over the shared ones: the last folder holding it wins.
      for (const dir of [...fixtures].reverse()) {
        const found = await readFixture(dir, key);
        if (found !== undefined) return found;
      }
      return { state: 'missing', deleted: false };
    },
    async match(pattern) {
      const key = normaliseWorkspacePath(pattern);
      const matches = picomatch(key, { dot: true });
      const paths = new Set(await allFixturePaths());
      for (const entry of left) {
        if (entry.status === 'deleted') paths.delete(entry.path);
        else paths.add(entry.path);
      }
      return [...paths].filter((path) => matches(path)).sort();
    },
  };
}
