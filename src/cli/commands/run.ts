import type { Command } from 'commander';
import type { ExitCode } from '../../errors.js';
import { detachSelf } from '../detach.js';
import { type RunFlags, startRun } from '../start-run.js';

export default async function runCommand(ref: string, flags: RunFlags, command: Command): Promise<ExitCode> {
  if (flags.detach) return detachSelf('run', command);
  return startRun(ref, flags, command);
}
