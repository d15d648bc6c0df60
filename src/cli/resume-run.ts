/**
 * Resuming a run: check the experiment still matches what the run was started with (or
 * start a new baseline with --rebaseline), re-attach the run branch, apply budget
 * extensions, and continue the loop where the journal left it. Finished model calls come
 * from the run's cache, so nothing is paid for twice.
 */
import { join } from 'node:path';
import type { Command } from 'commander';
import { AutoresearchError, EXIT, type ExitCode } from '../errors.js';
import { loadExperiment } from '../experiment/load-experiment.js';
import { applyOverrides, type OverrideFlags } from '../experiment/overrides.js';
import type { Experiment } from '../experiment/types.js';
import { startSeeds } from '../run/run-from.js';
import { branchHead, findRunCommits, openRepo } from '../git/index.js';
import { parseBudgetOverride } from '../loop/budget.js';
import type { GitBinding } from '../loop/loop-deps.js';
import { killPointFromEnv } from '../loop/kill-point.js';
import { budgetVerdict } from '../loop/run-loop.js';
import { createRunRecorder } from '../loop/run-recorder.js';
import type { GitInfo, RunEvent, RunEventBody } from '../run/events.js';
import { sha256Json } from '../sha256.js';
import { fingerprintExperiment } from '../run/fingerprint.js';
import { readJournal } from '../run/journal.js';
import { pendingBatches } from '../providers/batch/batch-runner.js';
import { acquireRunLock } from '../run/lock.js';
import { removeOrphanedWrites } from '../run/remove-orphaned-writes.js';
import { compareManifest, type Manifest, readManifest, writeManifest } from '../run/manifest.js';
import { currentProcessIdentity } from '../run/process-identity.js';
import { activeSecondsAt, reduceRun } from '../run/reducer.js';
import type { RunState } from '../run/run-state.js';
import { newestResumableRun } from '../run/newest-resumable.js';
import { resolveRunRef } from '../run/run-ref.js';
import { isolationWarning } from '../sandbox/run-isolation.js';
import { unpricedWarning } from '../experiment/estimate-cost.js';
import { formatProblems } from '../ui/format-problems.js';
import { renderNote } from '../ui/run-renderer.js';
import { terminal } from '../ui/terminal.js';
import { refuseMissingKeys } from '../experiment/missing-keys.js';
import { runSession, simulatedRoles } from './run-session.js';
import { planEstimateOf } from './start-run.js';
import { runsDirOf } from './runs-dir-option.js';
import { withStartPrompt } from '../experiment/start-prompt.js';

export interface ResumeFlags extends OverrideFlags {
  rebaseline?: boolean;
  detach?: boolean;
  /** Refused: `--from` belongs to `run`. */
  from?: string;
}

const BUDGET_KEYS = ['iterations', 'hours', 'usd', 'patience'] as const;

export async function resumeRun(
  idOrPrefix: string | undefined,
  flags: ResumeFlags,
  command: Command,
): Promise<ExitCode> {
  const env = process.env;
  const term = terminal();
  if (flags.from !== undefined) {
    throw new AutoresearchError(
      'E_USAGE',
      '--from starts a new run; resume continues a run from where it stopped',
      {
        hint: `start a new run from it with \`autoresearch run <experiment> --from ${flags.from}\`, or resume without --from`,
      },
    );
  }
  const runsDir = runsDirOf(command, env);
  const { id: runId, dir: runDir } = await resumeTarget(runsDir, idOrPrefix);
  if (idOrPrefix === undefined)
    term.err(term.colors.dim(`resuming the newest stopped or crashed run: ${runId}`));
  const manifest = await readManifest(runDir);
  if (manifest.kind !== 'run') {
    const what = manifest.kind === 'eval' ? 'an evaluation' : 'a calibration';
    throw new AutoresearchError('E_USAGE', `${runId} is ${what}, not an optimization run`, {
      hint: `${what === 'an evaluation' ? 'evaluations' : 'calibrations'} finish in one step; run \`autoresearch ${manifest.kind}\` again instead`,
    });
  }
  const journal = await readJournal(runDir);
  if (journal.tornTail)
    term.err(
      term.colors.yellow(
        renderNote(
          term,
          'note: the journal ended in a half-written line (a crash mid-write); it was ignored',
          6,
        ),
      ),
    );
  const onDisk = await loadForResume(manifest, journal.events, flags, env);
  const differences = compareManifest(manifest, fingerprintExperiment(onDisk));
  // A run started with --from evaluates the prompt its manifest holds, not the working tree's,
  // when its baseline is still to do.
  const experiment =
    manifest.from === undefined
      ? onDisk
      : withStartPrompt(onDisk, manifest.from.text, startSeeds(manifest.from));
  const blocking = differences.filter((d) => d.blocking);
  for (const d of differences.filter((d) => !d.blocking))
    term.err(term.colors.dim(renderNote(term, `note: ${d.message}`, 6)));
  if (blocking.length > 0 && !flags.rebaseline) {
    throw new AutoresearchError(
      'E_RESUME_MISMATCH',
      `the experiment changed since run ${runId} started:\n  - ${blocking.map((d) => d.message).join('\n  - ')}`,
      {
        hint: `scores from before and after would not be comparable. Undo the change to continue, or resume with --rebaseline to score the current best prompt again under the new setup (history is kept), or start a new run`,
      },
    );
  }
  // Said again on each resume: the judge of this session runs under it, and the first warning may be long gone.
  const isolation = isolationWarning(experiment);
  if (isolation !== undefined) term.err(term.colors.yellow(renderNote(term, `warning: ${isolation}`, 9)));
  const unpriced = unpricedWarning(experiment);
  if (unpriced !== undefined) term.err(term.colors.yellow(renderNote(term, `warning: ${unpriced}`, 9)));
  refuseMissingKeys(experiment, env);

  const lock = await acquireRunLock(runDir, await currentProcessIdentity());
  try {
    if (lock.warning) term.err(term.colors.yellow(`warning: ${lock.warning}`));
    await removeOrphanedWrites(runDir);
    // Re-read under the lock: the journal is only trusted once no one else can append to it.
    const events = (await readJournal(runDir)).events;
    const killPoint = killPointFromEnv(env);
    // The run goes on under the record version it started with (record-version.ts).
    const recorder = createRunRecorder(runDir, events, () => new Date(), {
      version: manifest.version,
      ...(killPoint ? { killPoint } : {}),
    });
    // A crash between writing the manifest and journaling the start: nothing ran yet.
    if (recorder.state().start === null) await recorder.emit(await startFromManifest(manifest, experiment));
    const state = recorder.state();
    const done = finishedWithoutNewBudget(state, experiment, Boolean(flags.rebaseline));
    if (done !== undefined) {
      term.err(
        `run ${runId} already finished (${done}); there is nothing to resume and nothing was spent.\n` +
          `hint: to go on, give it more budget, e.g. autoresearch resume ${runId} --iterations +2`,
      );
      await lock.release();
      return EXIT.ok;
    }
    const git = await reattachGit(manifest, experiment, runId, state);
    await recorder.emit({
      type: 'run_resumed',
      overrides: resumeOverridesOf(experiment, flags),
      rebaseline: Boolean(flags.rebaseline),
    });
    // From here on the run is scored under the new setup: later resumes compare against it.
    // Journaled first, so a crash in between leaves a rebaseline pending, never a silent mix.
    if (flags.rebaseline && blocking.length > 0) {
      await writeManifest(runDir, { ...manifest, ...fingerprintExperiment(onDisk) });
    }
    term.err(
      renderNote(
        term,
        `${term.colors.bold(`resuming ${runId}`)} at iteration ${state.nextIteration}` +
          (state.open ? ` (iteration ${state.open.iteration} was interrupted and is redone)` : ''),
      ),
    );
    return await runSession({
      experiment,
      pendingBatches: pendingBatches(events),
      runId,
      runDir,
      recorder,
      git,
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

/**
 * Why a finished run has nothing left to do: its budget, extended by this resume's flags or
 * not, would stop it before one more iteration — and resuming would only pay for the final
 * evaluation again. Undefined when it can go on (more budget, or a rebaseline).
 */
function finishedWithoutNewBudget(state: RunState, experiment: Experiment, rebaseline: boolean) {
  const incumbent = state.incumbent;
  if (state.journalStatus !== 'finished' || rebaseline || incumbent === null || incumbent.train === null)
    return undefined;
  const verdict = budgetVerdict(
    { experiment, now: () => new Date(), planEstimate: planEstimateOf(experiment) },
    state,
    { train: incumbent.train, eligible: incumbent.eligible },
  );
  return verdict.stop ? verdict.message : undefined;
}

async function startFromManifest(manifest: Manifest, experiment: Experiment): Promise<RunEventBody> {
  let git: GitInfo | null = null;
  if (manifest.git) {
    const repo = await openRepo(experiment.dir);
    const head = repo ? await branchHead({ repo, branch: manifest.git.branch }) : null;
    // Before the first iteration the branch holds at most the baseline commit.
    const baselineCommit = head !== null && head !== manifest.git.base ? head : null;
    git = { ...manifest.git, baselineCommit };
  }
  return {
    type: 'run_started',
    runId: manifest.runId,
    kind: 'run',
    experiment: manifest.experiment.name,
    configDigest: sha256Json(manifest.config),
    overrides: manifest.overrides,
    git,
    simulated: simulatedRoles(experiment),
  };
}

/** The experiment as the run sees it now: the file, the run's own overrides, earlier resumes' budgets and --batch, then these flags. */
async function loadForResume(
  manifest: Manifest,
  events: readonly RunEvent[],
  flags: ResumeFlags,
  env: NodeJS.ProcessEnv,
): Promise<Experiment> {
  const term = terminal();
  const file = join(manifest.projectRoot, manifest.experiment.file);
  const loaded = await loadExperiment(file, { cwd: manifest.projectRoot, env });
  const original = applyOverrides(loaded.experiment, toFlags(manifest.overrides)).experiment;
  const warnings = loaded.problems.filter(
    (p) => !(manifest.overrides['provider'] === 'sim' && /API key|_API_KEY/.test(p.message)),
  );
  if (warnings.length > 0) term.err(formatProblems(warnings, term.colors));
  const budget = { ...original.config.budget };
  for (const extension of resumedBudgets(events)) Object.assign(budget, extension);
  // A night resumed once with --batch stays batched on every later resume.
  const batched = events.some((e) => e.type === 'run_resumed' && e.overrides['batch'] === true);
  const withExtensions: Experiment = {
    ...original,
    config: { ...original.config, budget, ...(batched ? { batch: true } : {}) },
  };
  const { iterations, hours, usd, patience, ...rest } = flags;
  const overridden = applyOverrides(withExtensions, rest).experiment;
  const next = { ...overridden.config.budget };
  const relative = { iterations, hours, usd, patience };
  const used = budgetUsed(reduceRun(events));
  for (const key of BUDGET_KEYS) {
    const flag = relative[key];
    if (flag === undefined) continue;
    next[key] = parseBudgetOverride(flag, next[key], {
      name: `--${key}`,
      integer: key !== 'hours' && key !== 'usd',
      used: used[key],
    });
  }
  return { ...overridden, config: { ...overridden.config, budget: next } };
}

/** The run named, or without a name the newest one that stopped or crashed (run/newest-resumable.ts). */
export function resumeTarget(runsDir: string, idOrPrefix: string | undefined) {
  return idOrPrefix === undefined ? newestResumableRun(runsDir) : resolveRunRef(runsDir, idOrPrefix);
}

/** What the run has used of each budget: `+N` on resume counts from here (loop/budget.ts). */
function budgetUsed(state: RunState): Record<(typeof BUDGET_KEYS)[number], number> {
  return {
    iterations: state.completedIterations,
    hours: activeSecondsAt(state, new Date()) / 3600,
    usd: state.spend.usd,
    patience: state.counters.nonImproving,
  };
}

/** Budgets set by earlier resumes (journaled as absolute values), oldest first. */
function resumedBudgets(
  events: readonly RunEvent[],
): Partial<Record<(typeof BUDGET_KEYS)[number], number>>[] {
  return events.flatMap((e) =>
    e.type === 'run_resumed'
      ? [
          Object.fromEntries(
            BUDGET_KEYS.flatMap((key) =>
              typeof e.overrides[key] === 'number' ? [[key, e.overrides[key]]] : [],
            ),
          ),
        ]
      : [],
  );
}

/**
 * What this resume changes for good: budgets as absolute values, and `--batch`
 * (docs/design/cost-engine.md).
 */
function resumeOverridesOf(experiment: Experiment, flags: ResumeFlags): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of BUDGET_KEYS) if (flags[key] !== undefined) out[key] = experiment.config.budget[key];
  if (experiment.config.batch === true && (flags.batch === true || flags.batch === 'true'))
    out['batch'] = true;
  return out;
}

function toFlags(overrides: Record<string, unknown>): OverrideFlags {
  return Object.fromEntries(
    Object.entries(overrides)
      .filter(([, value]) => value !== undefined && value !== null)
      .map(([key, value]) => [key, String(value)]),
  ) as OverrideFlags;
}

async function reattachGit(
  manifest: Manifest,
  experiment: Experiment,
  runId: string,
  state: RunState,
): Promise<GitBinding | null> {
  if (!manifest.git) return null;
  const repo = await openRepo(experiment.dir);
  if (!repo) {
    throw new AutoresearchError(
      'E_GIT',
      `run ${runId} committed to git, but ${experiment.dir} is no longer in a repository`,
    );
  }
  const branch = manifest.git.branch;
  const head = await branchHead({ repo, branch });
  if (head === null) {
    throw new AutoresearchError('E_GIT', `the run branch ${branch} no longer exists`, {
      hint: 'restore it (git branch <name> <sha> from the commits in results.tsv) or start a new run',
    });
  }
  if (head !== state.expectedHead) {
    // One commit ahead of the journal is a keep committed just before a crash: resume journals it.
    const commits = await findRunCommits({ repo, branch, runId });
    const last = commits.at(-1);
    const pendingKeep =
      state.incumbent?.commit === null && last?.sha === head && last.iteration === state.incumbent.iteration;
    if (!pendingKeep) {
      throw new AutoresearchError(
        'E_GIT',
        `the run branch ${branch} moved: it is at ${head.slice(0, 7)}, the run expected ${state.expectedHead?.slice(0, 7)}`,
        {
          hint: 'someone committed to the run branch; reset it to the expected commit or start a new run',
        },
      );
    }
  }
  return { repo, branch, promptPath: experiment.promptPath };
}
