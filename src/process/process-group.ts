/**
 * Every program we start leads its own process group, so one signal to the group reaches all
 * it started. The groups still alive are killed when this process exits: a detached group is
 * outside the reach of execa's own clean-up.
 */
const isWindows = process.platform === 'win32';

const live = new Set<number>();
let exitHooked = false;

/** Whether programs get a group of their own (Windows has none: the program alone is killed). */
export const OWN_GROUP = !isWindows;

export function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(isWindows ? pid : -pid, signal);
  } catch {
    // already gone
  }
}

export function trackGroup(pid: number): void {
  live.add(pid);
  if (exitHooked) return;
  exitHooked = true;
  process.on('exit', () => {
    for (const group of live) killGroup(group, 'SIGKILL');
  });
}

export function untrackGroup(pid: number): void {
  live.delete(pid);
}
