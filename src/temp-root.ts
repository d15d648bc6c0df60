/**
 * Where a process puts its temporary folders (judge and grader sandboxes, prompt files for
 * command providers, CLI providers' working folders, git's scratch index): one folder of its
 * own under the OS temp dir, `autoresearch-tmp-XXXXXX`, holding `owner.json` (pid, host,
 * process start time) beside them. Each is removed when its work is done and the folder when
 * the process exits; a runner killed outright (SIGKILL, out of memory) removes nothing, so
 * the next process to need a temporary folder first removes those whose owner is gone — with
 * them the outputs and prompts they held, which have no business lingering in /tmp.
 *
 * The name tells a person looking at /tmp whose folders these are; it says nothing about the
 * experiment, so a judge that looks at its own path learns nothing it may not know
 * (docs/design/judge-protocol.md).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isRecord } from './is-record.js';
import {
  currentProcessIdentity,
  lookForProcess,
  type ProcessIdentity,
  type ProcessProbe,
  systemProbe,
} from './run/process-identity.js';

const PREFIX = 'autoresearch-tmp-';
const NAME = /^autoresearch-tmp-[A-Za-z0-9]{6}$/;
const OWNER_FILE = 'owner.json';
/** A folder without a readable owner is left alone this long (its creator may be writing it). */
const UNOWNED_GRACE_MS = 60 * 60 * 1000;

let root: Promise<string> | undefined;

/** This process's temporary folder, made on first use (stale ones are swept then, in the background). */
export function tempRoot(): Promise<string> {
  // A failure (a full disk, too many open files) is not remembered: the next caller tries again.
  root ??= makeRoot().catch((error: unknown) => {
    root = undefined;
    throw error;
  });
  return root;
}

async function makeRoot(): Promise<string> {
  const base = tmpdir();
  // Never delays the caller; a failure here only leaves debris for the next sweep.
  void sweepStaleTempRoots({ base }).catch(() => undefined);
  const owner = `${JSON.stringify(await currentProcessIdentity())}\n`;
  // Made and claimed in one synchronous step: no other work of this process (a kill point
  // included) can run between them and leave a folder without its owner.
  const dir = mkdtempSync(join(base, PREFIX));
  writeFileSync(join(dir, OWNER_FILE), owner);
  // Synchronous, so it also runs on process.exit(); a signal that kills outright skips it.
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export interface SweepOptions {
  /** The folder to look in (default: the OS temp dir). */
  base?: string;
  probe?: ProcessProbe;
  now?: () => number;
}

/** Removes every such folder in `base` whose owning process is gone; returns their paths. */
export async function sweepStaleTempRoots(options: SweepOptions = {}): Promise<string[]> {
  const base = options.base ?? tmpdir();
  const probe = options.probe ?? systemProbe();
  const now = options.now ?? Date.now;
  let names: string[];
  try {
    names = await readdir(base);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    if (!NAME.test(name)) continue;
    const dir = join(base, name);
    try {
      if (!(await isStale(dir, probe, now))) continue;
      await rm(dir, { recursive: true, force: true });
      removed.push(dir);
    } catch {
      // Someone else's, or already gone: not ours to worry about.
    }
  }
  return removed;
}

async function isStale(dir: string, probe: ProcessProbe, now: () => number): Promise<boolean> {
  const owner = await readOwner(dir);
  if (owner === undefined) {
    const { mtimeMs } = await stat(dir);
    return now() - mtimeMs > UNOWNED_GRACE_MS;
  }
  // Another machine's process (a shared temp dir) cannot be checked from here: left alone.
  return (await lookForProcess(owner, probe)).state === 'gone';
}

async function readOwner(dir: string): Promise<ProcessIdentity | undefined> {
  let value: unknown;
  try {
    value = JSON.parse(await readFile(join(dir, OWNER_FILE), 'utf8'));
  } catch {
    return undefined;
  }
  if (!isRecord(value)) return undefined;
  const { pid, host, startTime } = value;
  if (typeof pid !== 'number' || typeof host !== 'string') return undefined;
  if (startTime !== null && typeof startTime !== 'string') return undefined;
  return { pid, host, startTime };
}
