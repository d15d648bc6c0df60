/**
 * The cap on what one attempt's program adds to disk under `os` isolation
 * (judging.limits.disk_mb, sandbox-limits.ts): its sandbox's private folder (cwd, HOME, a CLI's
 * login copy) and the workspace it was given are watched from when the program is handed its
 * files; past the cap, the program is stopped through the signal it runs with, and `exceeded`
 * says why. Under `process` isolation nothing is watched.
 */
import { linkSignals } from '../providers/linked-signal.js';
import { type FolderWatch, watchFolderSize } from './folder-size-watch.js';
import type { Isolation } from './isolation.js';
import type { Sandbox } from './sandbox.js';
import { MB, type SandboxLimits } from './sandbox-limits.js';

export interface DiskCap {
  /** The caller's signal, and the cap's: what the program runs with. */
  signal: AbortSignal | undefined;
  /** Starts watching (the folders measured as they are now). */
  start(): Promise<void>;
  stop(): void;
  /** Why the program was stopped, once the cap was passed. */
  readonly exceeded: string | undefined;
}

export function diskCap(
  run: { isolation?: Isolation; limits: SandboxLimits; workspace?: string; signal?: AbortSignal },
  sandbox: Sandbox,
): DiskCap {
  if (run.isolation !== 'os') {
    return { signal: run.signal, start: async () => {}, stop() {}, exceeded: undefined };
  }
  const controller = new AbortController();
  const { disk_mb } = run.limits;
  const folders = run.workspace === undefined ? [sandbox.root] : [sandbox.root, run.workspace];
  let watch: FolderWatch | undefined;
  let stopped = false;
  let exceeded: string | undefined;
  // linkSignals, not AbortSignal.any, which on Node 20 leaves an entry on the run's signal per call.
  const linked = linkSignals(run.signal, controller.signal);
  return {
    signal: linked.signal,
    async start() {
      const started = await watchFolderSize(folders, disk_mb * MB, () => {
        exceeded = `wrote more than judging.limits.disk_mb (${disk_mb} MB) to disk and was stopped`;
        controller.abort();
      });
      if (stopped) started.stop();
      else watch = started;
    },
    stop() {
      stopped = true;
      watch?.stop();
      linked.dispose();
    },
    get exceeded() {
      return exceeded;
    },
  };
}
