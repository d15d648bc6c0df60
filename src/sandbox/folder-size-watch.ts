/**
 * Watches what a sandboxed program adds to its folders on disk (sandbox-limits.ts, the cap
 * `judging.limits.disk_mb`): their size is measured when it starts and then again and again;
 * once it has grown by more than the cap, `onExceeded` is called, once, and the watch ends.
 *
 * Each entry counts the blocks it holds on disk, and at least one 4 KiB block, so a flood of
 * empty files or folders counts too; links are not followed. Looks are a quarter second apart,
 * or ten times as long as the last one took (a large workspace), so the program may write past
 * the cap by what it writes between two looks.
 */
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';

const MIN_ENTRY_BYTES = 4096;
const MIN_INTERVAL_MS = 250;
const MAX_INTERVAL_MS = 5000;

export interface FolderWatch {
  stop(): void;
}

/** What the folders hold on disk, in bytes; the walk stops once it passes `stopAt`. */
export async function folderBytes(folders: readonly string[], stopAt = Infinity): Promise<number> {
  let total = 0;
  const pending = [...folders];
  while (pending.length > 0 && total <= stopAt) {
    const dir = pending.pop() as string;
    let names: string[];
    try {
      names = await readdir(dir);
    } catch {
      // Gone meanwhile, or not a folder.
      continue;
    }
    for (const name of names) {
      const path = join(dir, name);
      try {
        const stat = await lstat(path);
        total += Math.max(stat.blocks * 512, MIN_ENTRY_BYTES);
        if (stat.isDirectory()) pending.push(path);
      } catch {
        // Removed between the listing and the look.
      }
      if (total > stopAt) break;
    }
  }
  return total;
}

/** Measures the folders now (before the program starts), then watches them. */
export async function watchFolderSize(
  folders: readonly string[],
  maxBytes: number,
  onExceeded: () => void,
): Promise<FolderWatch> {
  const limit = (await folderBytes(folders)) + maxBytes;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const look = async () => {
    const started = Date.now();
    const bytes = await folderBytes(folders, limit);
    if (stopped) return;
    if (bytes > limit) {
      stopped = true;
      onExceeded();
      return;
    }
    const wait = Math.min(MAX_INTERVAL_MS, Math.max(MIN_INTERVAL_MS, 10 * (Date.now() - started)));
    timer = setTimeout(() => void look(), wait);
    // The watch never keeps the runner alive on its own.
    timer.unref();
  };
  timer = setTimeout(() => void look(), MIN_INTERVAL_MS);
  timer.unref();
  return {
    stop() {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
    },
  };
}
