/**
 * What a workspace holds, as path → entry (docs/design/agent-runs.md "One case"): a regular file by
 * its size and sha256, a link by where it points (never followed), anything else by its kind.
 * `.git/` is left out. The walk stops at SNAPSHOT_LIMIT entries, so an agent that made a million
 * files costs a bounded walk; `truncated` says so.
 */
import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { lstat, open, readdir, readlink } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';

export type SnapshotEntry =
  | { kind: 'file'; size: number; sha256: string }
  | { kind: 'link'; target: string }
  | { kind: 'other' };

export interface FolderSnapshot {
  entries: Map<string, SnapshotEntry>;
  truncated: boolean;
}

export const SNAPSHOT_LIMIT = 10_000;

// Not following a link the agent left, and not waiting on a FIFO it made.
const READ_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

export async function snapshotFolder(root: string): Promise<FolderSnapshot> {
  const entries = new Map<string, SnapshotEntry>();
  let truncated = false;
  const walk = async (dir: string): Promise<void> => {
    const names = (await readdir(dir)).sort();
    for (const name of names) {
      if (entries.size >= SNAPSHOT_LIMIT) {
        truncated = true;
        return;
      }
      const path = join(dir, name);
      const key = relative(root, path).split(sep).join('/');
      if (key === '.git') continue;
      const info = await lstat(path);
      if (info.isDirectory()) await walk(path);
      else if (info.isSymbolicLink()) entries.set(key, { kind: 'link', target: await readlink(path) });
      else if (info.isFile())
        entries.set(key, { kind: 'file', size: info.size, sha256: await hashFile(path) });
      else entries.set(key, { kind: 'other' });
    }
  };
  await walk(root);
  return { entries, truncated };
}

async function hashFile(path: string): Promise<string> {
  const handle = await open(path, READ_FLAGS);
  try {
    const hash = createHash('sha256');
    for await (const chunk of handle.createReadStream({ autoClose: false })) hash.update(chunk as Buffer);
    return hash.digest('hex');
  } finally {
    await handle.close();
  }
}
