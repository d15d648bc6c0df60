/**
 * A run killed in the middle of an atomic write (SIGKILL, power loss) leaves that write's
 * temporary file beside its target (atomic-file.ts). The target itself is whole — the old
 * version or none — so the temporary file is only litter, but it would stay in the run folder
 * for good. Resume, holding the run's lock, removes those whose writer is no longer running;
 * one of a live process (a `report` writing into the folder just now) is left alone.
 */
import { readdir, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { temporaryFileWriter } from '../atomic-file.js';

/** Whether a process with this pid runs on this machine (EPERM: it runs, as another user). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes the orphaned temporary files under `runDir`; returns their paths relative to it. */
export async function removeOrphanedWrites(runDir: string): Promise<string[]> {
  const names = await readdir(runDir, { recursive: true });
  const orphans = names.filter((name) => {
    const pid = temporaryFileWriter(basename(name));
    return pid !== undefined && pid !== process.pid && !isRunning(pid);
  });
  await Promise.all(orphans.map((name) => rm(join(runDir, name), { force: true })));
  return orphans;
}
