import type { Command } from 'commander';
import type { ExitCode } from '../../errors.js';
import { detachSelf } from '../detach.js';
import { type ResumeFlags, resumeRun } from '../resume-run.js';

export default async function resumeCommand(
  id: string | undefined,
  flags: ResumeFlags,
  command: Command,
): Promise<ExitCode> {
  if (flags.detach) return detachSelf('resume', command);
  return resumeRun(id, flags, command);
}
