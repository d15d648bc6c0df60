/**
 * `run --detach` / `resume --detach`: validate in the foreground (so mistakes are seen at
 * once), then start the same command as a detached background process whose output goes to
 * the run folder, print the run id and the log path, and return.
 */
import { spawn } from 'node:child_process';
import { openSync, closeSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Command } from 'commander';
import { EXIT, type ExitCode } from '../errors.js';
import { createRunId } from '../run/run-id.js';
import { ensureRunsDir } from '../run/runs-dir.js';
import { terminal } from '../ui/terminal.js';
import { resumeTarget } from './resume-run.js';
import { prepareExperiment, type RunFlags } from './start-run.js';
import { runsDirOf } from './runs-dir-option.js';
import { resolveFrom } from './resolve-from.js';

export const RUN_LOG = 'run.log';

export async function detachSelf(kind: 'run' | 'resume', command: Command): Promise<ExitCode> {
  const env = process.env;
  const runsDir = runsDirOf(command, env);
  const [target] = command.args as [string | undefined];
  let runId: string;
  const extra: string[] = [];
  if (kind === 'run') {
    const flags = command.opts() as RunFlags;
    const { experiment } = await prepareExperiment(target ?? '', flags, env);
    // A bad --from is refused here (exit 2), not in the background process's log.
    if (flags.from !== undefined) await resolveFrom(flags.from, runsDir, experiment);
    await ensureRunsDir(runsDir);
    runId = createRunId(experiment.name, { now: new Date(), random: Math.random });
    extra.push('--run-id', runId);
  } else {
    runId = (await resumeTarget(runsDir, target)).id;
    // The background process resumes the run chosen here, not whichever is newest when it starts.
    if (target === undefined) extra.push(runId);
  }
  const runDir = join(runsDir, runId);
  await mkdir(runDir, { recursive: true });
  const log = join(runDir, RUN_LOG);
  const fd = openSync(log, 'a');
  const argv = process.argv.slice(2).filter((arg) => arg !== '--detach');
  const child = spawn(
    process.execPath,
    [process.argv[1] as string, ...argv, ...extra, '--runs-dir', runsDir],
    {
      detached: true,
      stdio: ['ignore', fd, fd],
      env: { ...env, NO_COLOR: '1' },
    },
  );
  child.unref();
  closeSync(fd);
  const term = terminal();
  term.out(runId);
  term.err(`started in the background (pid ${child.pid}); log: ${log}`);
  term.err(`follow it with \`autoresearch watch ${runId}\`; stop it with \`autoresearch stop ${runId}\``);
  return EXIT.ok;
}
