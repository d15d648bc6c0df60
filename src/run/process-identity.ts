/**
 * Who holds a lock, in a form that survives pid reuse: pid, host, and the process's start
 * time (Linux: boot id + start ticks from /proc/<pid>/stat). A live pid with a different start
 * time is a different process, so its lock is stale.
 */
import { readFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { isErrno } from './errno.js';

export interface ProcessIdentity {
  pid: number;
  host: string;
  /** Opaque; null where the platform cannot tell (no /proc). */
  startTime: string | null;
}

export interface ProcessSighting {
  alive: boolean;
  startTime: string | null;
}

/** How lock code looks at processes on this machine; tests may pass their own. */
export interface ProcessProbe {
  readonly host: string;
  inspect(pid: number): Promise<ProcessSighting>;
}

/**
 * Whether a recorded process still runs: `elsewhere` when it was on another host (it cannot be
 * checked from here), `gone` (with the reason) when it exited or its pid now names another
 * process. Shared by the run lock and the temporary-folder sweep.
 */
export async function lookForProcess(
  owner: ProcessIdentity,
  probe: ProcessProbe,
): Promise<{ state: 'running' } | { state: 'elsewhere' } | { state: 'gone'; reason: string }> {
  if (owner.host !== probe.host) return { state: 'elsewhere' };
  const seen = await probe.inspect(owner.pid);
  if (!seen.alive) return { state: 'gone', reason: `process ${owner.pid} is gone` };
  if (owner.startTime !== null && seen.startTime !== null && seen.startTime !== owner.startTime) {
    return { state: 'gone', reason: `pid ${owner.pid} now belongs to a different process` };
  }
  return { state: 'running' };
}

export async function currentProcessIdentity(): Promise<ProcessIdentity> {
  return { pid: process.pid, host: hostname(), startTime: await readProcessStartTime(process.pid) };
}

export function systemProbe(): ProcessProbe {
  return {
    host: hostname(),
    inspect: async (pid) => {
      if (!signalZeroSucceeds(pid)) return { alive: false, startTime: null };
      const stat = await readProcStat(pid);
      // A zombie has exited; only its parent has not collected it yet.
      if (stat?.state === 'Z' || stat?.state === 'X') return { alive: false, startTime: null };
      return { alive: true, startTime: stat ? await withBootId(stat.startTicks) : null };
    },
  };
}

export async function readProcessStartTime(pid: number): Promise<string | null> {
  const stat = await readProcStat(pid);
  return stat ? withBootId(stat.startTicks) : null;
}

/** Pure: state and start time (field 22) from the text of /proc/<pid>/stat. */
export function parseProcStat(text: string): { state: string; startTicks: string } | null {
  // The command name (field 2) may hold spaces and parentheses; the fields after its last ')' are fixed.
  const close = text.lastIndexOf(')');
  if (close < 0) return null;
  const fields = text
    .slice(close + 1)
    .trim()
    .split(/\s+/);
  const state = fields[0];
  const startTicks = fields[19];
  if (state === undefined || startTicks === undefined || !/^\d+$/.test(startTicks)) return null;
  return { state, startTicks };
}

async function readProcStat(pid: number): Promise<{ state: string; startTicks: string } | null> {
  try {
    return parseProcStat(await readFile(`/proc/${pid}/stat`, 'utf8'));
  } catch (error) {
    if (isErrno(error, 'ENOENT') || isErrno(error, 'ESRCH') || isErrno(error, 'EACCES')) return null;
    throw error;
  }
}

let bootId: Promise<string> | undefined;

// Start ticks count from boot, so after a reboot the same pid and ticks could name another process.
async function withBootId(startTicks: string): Promise<string> {
  bootId ??= readFile('/proc/sys/kernel/random/boot_id', 'utf8').then(
    (text) => text.trim(),
    () => '',
  );
  const id = await bootId;
  return id === '' ? startTicks : `${id}:${startTicks}`;
}

function signalZeroSucceeds(pid: number): boolean {
  // 0 and negative pids address process groups, never one process.
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return isErrno(error, 'EPERM');
  }
}
