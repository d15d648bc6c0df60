/**
 * `autoresearch stop` talks to the running process through a file in the run folder naming
 * the lock token of the session it was meant for. A request left behind by a session that
 * ended (or crashed) names an old token, so it never stops a later `resume`.
 */
import { readFileSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export const STOP_FILE = 'stop-requested';

export async function requestStop(runDir: string, holderToken: string): Promise<void> {
  await writeFile(join(runDir, STOP_FILE), `${holderToken}\n`);
}

/** Checked between iterations: a small synchronous read. */
export function isStopRequested(runDir: string, ownToken: string): boolean {
  try {
    return readFileSync(join(runDir, STOP_FILE), 'utf8').trim() === ownToken;
  } catch {
    return false;
  }
}

export async function clearStopRequest(runDir: string): Promise<void> {
  await rm(join(runDir, STOP_FILE), { force: true });
}
