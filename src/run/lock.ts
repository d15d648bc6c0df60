/**
 * One process at a time per run. The lock is `run.lock` in the run folder, holding the
 * holder's pid, host and process start time. It is created whole with link(2), which fails
 * if the file exists, so no reader ever sees half a lock. A lock whose process is gone (or
 * whose pid now names another process) is stale and is taken over — under a guard file named
 * after the stale lock's content, so among processes racing for the same stale lock exactly
 * one replaces it.
 */
import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';
import { basename } from 'node:path';
import * as z from 'zod';
import { AutoresearchError } from '../errors.js';
import { sha256Hex } from '../sha256.js';
import { isErrno } from './errno.js';
import { runPaths } from './paths.js';
import { lookForProcess, systemProbe, type ProcessIdentity, type ProcessProbe } from './process-identity.js';

export const LockRecord = z.strictObject({
  pid: z.number().int().positive(),
  host: z.string().min(1),
  startTime: z.string().nullable(),
  /** Random per acquisition: tells this holder's file from any other with the same pid. */
  token: z.string().min(1),
  acquiredAt: z.iso.datetime({ offset: true }),
});
export type LockRecord = z.infer<typeof LockRecord>;

/** The lock file's content as a record, or undefined when it is not one. */
export function parseLockRecord(value: unknown): LockRecord | undefined {
  const result = LockRecord.safeParse(value);
  return result.success ? result.data : undefined;
}

export type LockStatus =
  | { state: 'none' }
  /** `verified` is false when the holder is on another host, where its process cannot be checked. */
  | { state: 'held'; holder: LockRecord; verified: boolean }
  | { state: 'stale'; holder: LockRecord | null; reason: string };

export interface RunLock {
  readonly record: LockRecord;
  /** Set when a stale lock was taken over: say so to the user. */
  readonly warning: string | null;
  release(): Promise<void>;
}

export interface LockDeps {
  probe?: ProcessProbe;
  now?: () => Date;
}

export class RunLockedError extends AutoresearchError {
  readonly holder: LockRecord;

  constructor(runDir: string, holder: LockRecord, verified: boolean) {
    const lockFile = runPaths(runDir).lock;
    super(
      'E_LOCKED',
      `run ${basename(runDir)} is in use: process ${holder.pid} on ${holder.host} holds its lock (since ${holder.acquiredAt})`,
      {
        hint: verified
          ? `wait for it to finish, or ask it to stop with \`autoresearch stop ${basename(runDir)}\``
          : `that host cannot be checked from here; if the process there is gone, delete ${lockFile}`,
      },
    );
    this.name = 'RunLockedError';
    this.holder = holder;
  }
}

export async function acquireRunLock(
  runDir: string,
  identity: ProcessIdentity,
  deps: LockDeps = {},
): Promise<RunLock> {
  const probe = deps.probe ?? systemProbe();
  const record: LockRecord = {
    pid: identity.pid,
    host: identity.host,
    startTime: identity.startTime,
    token: randomBytes(8).toString('hex'),
    acquiredAt: (deps.now?.() ?? new Date()).toISOString(),
  };
  const text = `${JSON.stringify(record)}\n`;
  const file = runPaths(runDir).lock;
  await mkdir(runDir, { recursive: true });
  const outcome = await claim(file, text, probe, 0);
  if (outcome.kind === 'held') throw new RunLockedError(runDir, outcome.holder, outcome.verified);
  const replaced = outcome.replaced;
  const warning = replaced
    ? `took over a stale lock (${replaced.holder ? `process ${replaced.holder.pid} on ${replaced.holder.host}` : 'unreadable'}): ${replaced.reason}`
    : null;
  let released = false;
  return {
    record,
    warning,
    release: async () => {
      if (released) return;
      released = true;
      await removeIfContent(file, text);
    },
  };
}

export async function readLockStatus(
  runDir: string,
  deps: Pick<LockDeps, 'probe'> = {},
): Promise<LockStatus> {
  const raw = await readRaw(runPaths(runDir).lock);
  if (raw === null) return { state: 'none' };
  return judge(parseRecord(raw), deps.probe ?? systemProbe());
}

type Verdict = Exclude<LockStatus, { state: 'none' }>;

async function judge(holder: LockRecord | null, probe: ProcessProbe): Promise<Verdict> {
  if (holder === null) return { state: 'stale', holder, reason: 'the lock file is unreadable' };
  const found = await lookForProcess(holder, probe);
  if (found.state === 'gone') return { state: 'stale', holder, reason: found.reason };
  return { state: 'held', holder, verified: found.state === 'running' };
}

type Claim =
  | { kind: 'acquired'; replaced: { holder: LockRecord | null; reason: string } | null }
  | { kind: 'held'; holder: LockRecord; verified: boolean };

// Each level guards the takeover of the level below; deeper than this means something is badly wrong.
const MAX_GUARD_DEPTH = 4;
/** How long to wait on another contender's takeover before giving up, and how often to look. */
const SETTLE_MS = 10_000;
const GUARD_WAIT_MS = 10;

async function claim(file: string, text: string, probe: ProcessProbe, depth: number): Promise<Claim> {
  if (depth > MAX_GUARD_DEPTH) throw new Error(`lock takeover guards nested too deep at ${file}`);
  const settleBy = Date.now() + SETTLE_MS;
  // Each round ends with the file changed under us, or a takeover seen in progress.
  for (let changes = 0; changes < 50 && Date.now() <= settleBy; changes++) {
    if (await createExclusive(file, text)) return { kind: 'acquired', replaced: null };
    const existing = await readRaw(file);
    if (existing === null) continue;
    const verdict = await judge(parseRecord(existing), probe);
    if (verdict.state === 'held') return { kind: 'held', holder: verdict.holder, verified: verdict.verified };
    // Only the process that creates this guard may replace this exact stale content.
    const guard = `${file}.takeover-${sha256Hex(existing).slice(0, 16)}`;
    const guarded = await claim(guard, text, probe, depth + 1);
    if (guarded.kind === 'held') {
      // Another contender is taking the stale lock over this moment. It is not the lock's holder
      // (it may yet lose the race): wait for what it leaves, and judge that.
      changes -= 1;
      await delay(GUARD_WAIT_MS);
      continue;
    }
    try {
      if ((await readRaw(file)) === existing) {
        await replaceFile(file, text);
        return { kind: 'acquired', replaced: { holder: verdict.holder, reason: verdict.reason } };
      }
    } finally {
      await removeIfContent(guard, text);
    }
  }
  throw new Error(`could not settle the lock at ${file}: it keeps changing`);
}

/** Create `file` with `text` unless it exists; the content appears all at once. */
async function createExclusive(file: string, text: string): Promise<boolean> {
  const temp = tempName(file);
  await writeFile(temp, text, { flag: 'wx' });
  try {
    await link(temp, file);
    return true;
  } catch (error) {
    if (isErrno(error, 'EEXIST')) return false;
    throw error;
  } finally {
    await unlink(temp).catch(() => {});
  }
}

async function replaceFile(file: string, text: string): Promise<void> {
  const temp = tempName(file);
  await writeFile(temp, text, { flag: 'wx' });
  try {
    await rename(temp, file);
  } catch (error) {
    await unlink(temp).catch(() => {});
    throw error;
  }
}

async function removeIfContent(file: string, text: string): Promise<void> {
  if ((await readRaw(file)) !== text) return;
  await unlink(file).catch((error: unknown) => {
    if (!isErrno(error, 'ENOENT')) throw error;
  });
}

async function readRaw(file: string): Promise<string | null> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if (isErrno(error, 'ENOENT')) return null;
    throw error;
  }
}

function parseRecord(raw: string): LockRecord | null {
  try {
    return parseLockRecord(JSON.parse(raw)) ?? null;
  } catch {
    return null;
  }
}

function tempName(file: string): string {
  return `${file}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
}
