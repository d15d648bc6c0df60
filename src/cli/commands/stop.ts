/**
 * `autoresearch stop <run>`: asks a running run to finish its current iteration and stop.
 * The request is a file in the run folder, naming the running session's lock token, that the
 * loop checks between iterations: it works from any terminal and never stops a later session.
 * A run waiting on a batch (`--batch`) checks it every second and stops at once, the batch left
 * pending for `resume` (docs/design/cost-engine.md).
 */
import type { Command } from 'commander';
import { EXIT, type ExitCode } from '../../errors.js';
import { readLockStatus } from '../../run/lock.js';
import { resolveRunRef } from '../../run/run-ref.js';
import { terminal } from '../../ui/terminal.js';
import { requestStop } from '../stop-request.js';
import { runsDirOf } from '../runs-dir-option.js';

export default async function stopCommand(id: string, _flags: unknown, command: Command): Promise<ExitCode> {
  const term = terminal();
  const runsDir = runsDirOf(command, process.env);
  const run = await resolveRunRef(runsDir, id);
  const lock = await readLockStatus(run.dir);
  if (lock.state !== 'held') {
    term.err(
      `run ${run.id} is not running; nothing to stop (resume it with \`autoresearch resume ${run.id}\`)`,
    );
    return EXIT.ok;
  }
  await requestStop(run.dir, lock.holder.token);
  term.out(
    `asked run ${run.id} (pid ${lock.holder.pid}) to stop after its current iteration (at once if it is waiting on a batch)`,
  );
  return EXIT.ok;
}
