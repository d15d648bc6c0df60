/**
 * The machine's processes as /proc lists them (Linux), for tests that check what a sandbox left
 * running or showed on a command line. A zombie has exited and is left out; a process is named
 * by its pid and start time, so a reused pid is not mistaken for it.
 */
import { readdirSync, readFileSync } from 'node:fs';

export interface ProcessEntry {
  pid: number;
  ppid: number;
  /** Clock ticks since boot (field 22 of /proc/<pid>/stat). */
  startTime: string;
  /** Arguments joined by spaces. */
  cmdline: string;
}

function readEntry(pid: number): ProcessEntry | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces and parentheses) start at the state.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields[0] === 'Z') return undefined;
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
    return { pid, ppid: Number(fields[1]), startTime: fields[19] ?? '', cmdline };
  } catch {
    return undefined;
  }
}

/** Every live process this one can see. */
export function listProcesses(): ProcessEntry[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map((name) => readEntry(Number(name)))
    .filter((entry): entry is ProcessEntry => entry !== undefined);
}

/** Live processes whose command line holds `text`. */
export function processesMentioning(text: string): ProcessEntry[] {
  return listProcesses().filter((entry) => entry.cmdline.includes(text));
}

/** Every live descendant of `pid`. */
export function descendantsOf(pid: number): ProcessEntry[] {
  const all = listProcesses();
  const found: ProcessEntry[] = [];
  const parents = new Set([pid]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const entry of all) {
      if (parents.has(entry.ppid) && !parents.has(entry.pid)) {
        parents.add(entry.pid);
        found.push(entry);
        grew = true;
      }
    }
  }
  return found;
}

/** Which of `entries` still run (the same pid with the same start time). */
export function stillRunning(entries: readonly ProcessEntry[]): ProcessEntry[] {
  return entries.filter((entry) => readEntry(entry.pid)?.startTime === entry.startTime);
}

/** Waits up to `withinMs` for `find` to come back empty; returns what it found last. */
export async function waitForNone(find: () => ProcessEntry[], withinMs: number): Promise<ProcessEntry[]> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const found = find();
    if (found.length === 0 || Date.now() > deadline) return found;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Kills what a failing test left behind, so it does not outlive the test either. */
export function killAll(entries: readonly ProcessEntry[]): void {
  for (const entry of stillRunning(entries)) {
    try {
      process.kill(entry.pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
}
