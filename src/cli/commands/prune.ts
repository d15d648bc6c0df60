/**
 * `autoresearch prune <run>`: delete a pareto run's pool refs (docs/design/pareto-search.md),
 * `refs/autoresearch/<experiment>/<run-id>/pool/p<n>`, so git may collect the commits only they
 * hold. The run branch and its keep commits stay, and so does the run folder: the refs are derived
 * from the journal, and a resume makes them again. A run that is still going is refused (its
 * lock): it would make them again at its next iteration. Held under the run's lock, so no resume
 * starts halfway.
 */
import type { Command } from 'commander';
import { AutoresearchError, EXIT, type ExitCode } from '../../errors.js';
import { deletePoolRefs, openRepo, poolRefPrefix } from '../../git/index.js';
import { acquireRunLock } from '../../run/lock.js';
import { readManifest } from '../../run/manifest.js';
import { currentProcessIdentity } from '../../run/process-identity.js';
import { resolveRunRef } from '../../run/run-ref.js';
import { terminal } from '../../ui/terminal.js';
import { runsDirOf } from '../runs-dir-option.js';

export default async function pruneCommand(id: string, _flags: unknown, command: Command): Promise<ExitCode> {
  const term = terminal();
  const runsDir = runsDirOf(command, process.env);
  const run = await resolveRunRef(runsDir, id);
  const manifest = await readManifest(run.dir);
  const lock = await acquireRunLock(run.dir, await currentProcessIdentity());
  try {
    if (lock.warning) term.err(term.colors.yellow(`warning: ${lock.warning}`));
    if (manifest.git === null) {
      term.out(`run ${run.id} ran with commits off: it has no pool refs`);
      return EXIT.ok;
    }
    const repo = await openRepo(manifest.projectRoot);
    if (repo === null) {
      throw new AutoresearchError(
        'E_GIT',
        `${manifest.projectRoot} is no longer in a git repository, so run ${run.id}'s refs cannot be reached`,
        { hint: 'run prune from a copy of the project where the repository is' },
      );
    }
    const prefix = poolRefPrefix(manifest.experiment.name, run.id);
    const count = await deletePoolRefs(repo, manifest.experiment.name, run.id);
    term.out(
      count === 0
        ? `run ${run.id} has no pool refs (${prefix}*); nothing to delete`
        : `deleted ${count} pool ref${count === 1 ? '' : 's'} of run ${run.id} (${prefix}*); its branch ${manifest.git.branch} stays`,
    );
    return EXIT.ok;
  } finally {
    await lock.release();
  }
}
