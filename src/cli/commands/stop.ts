/**
 * `autoresearch stop <run>`: asks a running run to finish its current iteration and stop.
 * The request is a file in the run folder that the loop checks between iterations, so it
 * works from any terminal and survives nothing but the run it was meant for.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Command } from 'commander';
import { EXIT, type ExitCode } from '../../errors.js';
import { readLockStatus } from '../../run/lock.js';
import { resolveRunId } from '../../run/run-id.js';
import { terminal } from '../../ui/terminal.js';
import { STOP_FILE } from '../run-session.js';
import { runsDirFor } from '../start-run.js';

export default async function stopCommand(id: string, _flags: unknown, command: Command): Promise<ExitCode> {
  const term = terminal();
  const runsDir = await runsDirFor(command, process.env);
  const run = await resolveRunId(runsDir, id);
  const lock = await readLockStatus(run.dir);
  if (lock.state !== 'held') {
    term.err(
      `run ${run.id} is not running; nothing to stop (resume it with \`autoresearch resume ${run.id}\`)`,
    );
    return EXIT.ok;
  }
  await writeFile(join(run.dir, STOP_FILE), `${new Date().toISOString()}\n`);
  term.out(`asked run ${run.id} (pid ${lock.holder.pid}) to stop after its current iteration`);
  return EXIT.ok;
}
