/**
 * Starting a new run: the run folder, its lock, the run branch, the manifest and the first
 * journal event. Everything after that is the session (run-session.ts), shared with resume.
 */
import { mkdir } from 'node:fs/promises';
import { relative } from 'node:path';
import type { Command } from 'commander';
import type { ExitCode } from '../errors.js';
import { estimateCost } from '../experiment/estimate-cost.js';
import { countCalls } from '../experiment/count-calls.js';
import { loadExperiment } from '../experiment/load-experiment.js';
import { isolationWarning } from '../sandbox/run-isolation.js';
import {
  applyOverrides,
  type OverrideFlags,
  providerOf,
  warningsAfterOverrides,
} from '../experiment/overrides.js';
import { partPaths } from '../experiment/part-texts.js';
import type { Experiment } from '../experiment/types.js';
import { createRunBranch, openRepo } from '../git/index.js';
import type { GitBinding } from '../loop/loop-deps.js';
import { killPointFromEnv } from '../loop/kill-point.js';
import { createRunRecorder } from '../loop/run-recorder.js';
import { sha256Json } from '../sha256.js';
import { fingerprintExperiment } from '../run/fingerprint.js';
import { acquireRunLock } from '../run/lock.js';
import { manifestExperiment, writeManifest } from '../run/manifest.js';
import { currentProcessIdentity } from '../run/process-identity.js';
import { RECORD_VERSION } from '../run/record-version.js';
import { createRunId } from '../run/run-id.js';
import { ensureRunsDir, findProjectRoot } from '../run/runs-dir.js';
import { VERSION } from '../version.js';
import { terminal } from '../ui/terminal.js';
import { formatProblems } from '../ui/format-problems.js';
import { renderNote, renderRunHeader } from '../ui/run-renderer.js';
import { unpricedWarning } from '../experiment/estimate-cost.js';
import { refuseMissingKeys } from '../experiment/missing-keys.js';
import { runSession, simulatedRoles } from './run-session.js';
import { join } from 'node:path';
import { runsDirOf } from './runs-dir-option.js';
import { resolveFrom } from './resolve-from.js';
import { withStartPrompt } from '../experiment/start-prompt.js';
import { describeFrom, startSeeds } from '../run/run-from.js';

export interface RunFlags extends OverrideFlags {
  detach?: boolean;
  runId?: string;
  /** `--from <run>[/<member>]`: start from that run's best or pool member (resolve-from.ts). */
  from?: string;
}

export async function prepareExperiment(ref: string, flags: OverrideFlags, env: NodeJS.ProcessEnv) {
  const term = terminal();
  const loaded = await loadExperiment(ref, { cwd: process.cwd(), env, ...providerOf(flags) });
  const { experiment, overrides, notes } = applyOverrides(loaded.experiment, flags);
  const warnings = warningsAfterOverrides(loaded.problems, loaded.experiment, experiment);
  if (warnings.length > 0) term.err(formatProblems(warnings, term.colors));
  for (const note of notes) term.err(term.colors.yellow(renderNote(term, `note: ${note}`, 6)));
  const isolation = isolationWarning(experiment);
  if (isolation !== undefined) term.err(term.colors.yellow(renderNote(term, `warning: ${isolation}`, 9)));
  const unpriced = unpricedWarning(experiment);
  if (unpriced !== undefined) term.err(term.colors.yellow(renderNote(term, `warning: ${unpriced}`, 9)));
  refuseMissingKeys(experiment, env);
  return { experiment, overrides };
}

export async function startRun(ref: string, flags: RunFlags, command: Command): Promise<ExitCode> {
  const env = process.env;
  const term = terminal();
  const { experiment: loaded, overrides } = await prepareExperiment(ref, flags, env);
  const runsDir = runsDirOf(command, env);
  // Read and checked before anything is written: a bad --from leaves no run folder behind.
  const from = flags.from === undefined ? undefined : await resolveFrom(flags.from, runsDir, loaded);
  for (const note of from?.notes ?? []) term.err(term.colors.yellow(renderNote(term, `note: ${note}`, 6)));
  // The manifest fingerprints the working tree (what `apply` protects); the loop and the run
  // branch's baseline commit start from the chosen prompt.
  const experiment =
    from === undefined ? loaded : withStartPrompt(loaded, from.from.text, startSeeds(from.from));
  await ensureRunsDir(runsDir);
  const now = new Date();
  const runId = flags.runId ?? createRunId(experiment.name, { now, random: Math.random });
  const runDir = join(runsDir, runId);
  await mkdir(runDir, { recursive: true });
  const lock = await acquireRunLock(runDir, await currentProcessIdentity());
  try {
    const git = await attachGit(experiment, runId, from === undefined ? undefined : describeFrom(from.from));
    const projectRoot = await findProjectRoot(experiment.dir);
    const rel = (file: string) => relative(projectRoot, file);
    await writeManifest(runDir, {
      version: RECORD_VERSION,
      kind: 'run',
      runId,
      createdAt: now.toISOString(),
      toolVersion: VERSION,
      projectRoot,
      experiment: manifestExperiment(loaded, rel),
      config: experiment.config as unknown as Record<string, unknown>,
      overrides,
      ...fingerprintExperiment(loaded),
      git: git ? { base: git.base, branch: git.binding.branch } : null,
      ...(from === undefined ? {} : { from: from.from }),
    });
    const killPoint = killPointFromEnv(env);
    const recorder = createRunRecorder(runDir, [], () => new Date(), killPoint ? { killPoint } : {});
    await recorder.emit({
      type: 'run_started',
      runId,
      kind: 'run',
      experiment: experiment.name,
      configDigest: sha256Json(experiment.config),
      overrides,
      git: git
        ? { branch: git.binding.branch, base: git.base, baselineCommit: git.baselineCommit ?? null }
        : null,
      simulated: simulatedRoles(experiment),
    });
    term.err(
      renderRunHeader(term, {
        runId,
        cases: experiment.cases.length,
        branch: git?.binding.branch ?? null,
        runDir,
      }),
    );
    if (from !== undefined)
      term.err(
        renderNote(term, `starting from ${describeFrom(from.from)}, evaluated afresh as the baseline`),
      );
    if (lock.warning) term.err(term.colors.yellow(`warning: ${lock.warning}`));
    return await runSession({
      experiment,
      runId,
      runDir,
      recorder,
      git: git?.binding ?? null,
      lock,
      env,
      planEstimate: planEstimateOf(experiment),
      ...(killPoint ? { killPoint } : {}),
    });
  } catch (error) {
    await lock.release().catch(() => undefined);
    throw error;
  }
}

export function planEstimateOf(experiment: Experiment): { usd: number | null; seconds: number | null } {
  const estimate = estimateCost(experiment, countCalls(experiment));
  return { usd: estimate.perIterationUsd, seconds: null };
}

async function attachGit(
  experiment: Experiment,
  runId: string,
  startsFrom: string | undefined,
): Promise<{ binding: GitBinding; base: string; baselineCommit?: string } | null> {
  const repo = await openRepo(experiment.dir);
  if (!repo) return null;
  const parts = partPaths(experiment.shape);
  for (const file of parts ? Object.values(parts) : [experiment.promptPath]) {
    try {
      repo.relativePath(file);
    } catch {
      terminal().err(`note: ${file} is outside the git repository at ${repo.root}; commits are off`);
      return null;
    }
  }
  const branch = await createRunBranch({
    repo,
    experiment: experiment.name,
    runId,
    promptPath: experiment.promptPath,
    promptText: experiment.prompt,
    ...(parts ? { partPaths: parts } : {}),
    ...(startsFrom === undefined ? {} : { startsFrom }),
  });
  return {
    binding: { repo, branch: branch.branch, promptPath: experiment.promptPath },
    base: branch.base,
    ...(branch.baselineCommit ? { baselineCommit: branch.baselineCommit } : {}),
  };
}
