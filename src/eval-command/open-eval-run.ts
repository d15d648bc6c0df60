/**
 * The record of an `eval` (docs/design/run-records.md, kind `eval`) or a `calibrate` (kind
 * `calibrate`, docs/design/judge-reliability.md): a fresh run folder under a new id, its lock, the
 * manifest and the `run_started` event — so `runs` and `show` list it like any run. No git branch:
 * neither changes anything.
 */
import { mkdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { Experiment } from '../experiment/types.js';
import { createRunRecorder, type EventListener, type RunRecorder } from '../loop/run-recorder.js';
import { sha256Json } from '../sha256.js';
import { isErrno } from '../run/errno.js';
import type { SpendRole } from '../run/events.js';
import { fingerprintExperiment } from '../run/fingerprint.js';
import { acquireRunLock, type RunLock } from '../run/lock.js';
import { manifestExperiment, writeManifest } from '../run/manifest.js';
import type { ProcessIdentity } from '../run/process-identity.js';
import { createRunId } from '../run/run-id.js';
import { ensureRunsDir } from '../run/runs-dir.js';
import { VERSION } from '../version.js';

export interface OpenEvalRunInput {
  /** Default `eval`. */
  kind?: 'eval' | 'calibrate';
  experiment: Experiment;
  overrides: Record<string, unknown>;
  simulatedRoles: SpendRole[];
  runsDir: string;
  projectRoot: string;
}

export interface OpenEvalRunDeps {
  now: () => Date;
  random: () => number;
  identity: ProcessIdentity;
  onEvent?: EventListener;
}

export interface OpenedEvalRun {
  runId: string;
  runDir: string;
  lock: RunLock;
  recorder: RunRecorder;
}

// A clash needs the same minute and the same four random characters; a few tries settle it.
const ID_ATTEMPTS = 5;

export async function openEvalRun(input: OpenEvalRunInput, deps: OpenEvalRunDeps): Promise<OpenedEvalRun> {
  const { experiment } = input;
  const kind = input.kind ?? 'eval';
  await ensureRunsDir(input.runsDir);
  const createdAt = deps.now();
  const { runId, runDir } = await claimRunFolder(input.runsDir, experiment.name, createdAt, deps.random);
  const lock = await acquireRunLock(runDir, deps.identity, { now: deps.now });
  try {
    const rel = (file: string) => relative(input.projectRoot, file);
    await writeManifest(runDir, {
      version: 1,
      kind,
      runId,
      createdAt: createdAt.toISOString(),
      toolVersion: VERSION,
      projectRoot: input.projectRoot,
      experiment: manifestExperiment(experiment, rel),
      config: experiment.config as unknown as Record<string, unknown>,
      overrides: input.overrides,
      ...fingerprintExperiment(experiment),
      git: null,
    });
    const recorder = createRunRecorder(runDir, [], deps.now);
    if (deps.onEvent) recorder.onEvent(deps.onEvent);
    await recorder.emit({
      type: 'run_started',
      runId,
      kind,
      experiment: experiment.name,
      configDigest: sha256Json(experiment.config),
      overrides: input.overrides,
      git: null,
      simulated: input.simulatedRoles,
    });
    return { runId, runDir, lock, recorder };
  } catch (error) {
    await lock.release().catch(() => undefined);
    throw error;
  }
}

async function claimRunFolder(
  runsDir: string,
  experiment: string,
  now: Date,
  random: () => number,
): Promise<{ runId: string; runDir: string }> {
  for (let attempt = 1; ; attempt++) {
    const runId = createRunId(experiment, { now, random });
    const runDir = join(runsDir, runId);
    try {
      await mkdir(runDir);
      return { runId, runDir };
    } catch (error) {
      if (!isErrno(error, 'EEXIST') || attempt >= ID_ATTEMPTS) throw error;
    }
  }
}
