/**
 * `autoresearch calibrate <experiment> [--labels FILE] [--json] [--fail-under-kappa K]
 * [--no-probes]` (docs/design/judge-reliability.md): measure the experiment's judge (and grader) against human labels,
 * print the agreement with its intervals (or calibration.json), record it as a run of kind
 * `calibrate`, and serve CI: exit 1 when the lowest criterion kappa is below K.
 * Exit codes: 0 ok, 1 run-time failure or --fail-under-kappa missed, 2 usage or bad labels,
 * 130 interrupted.
 */
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { labelledOutputs } from '../../calibrate/calibration-file.js';
import { type Label, LABELS_FILE, readLabels } from '../../calibrate/labels.js';
import { judgeKappaGate } from '../../calibrate/kappa-gate.js';
import { calledRoles, runCalibrate } from '../../calibrate/run-calibrate.js';
import { EXIT } from '../../errors.js';
import { refuseMissingKeys } from '../../experiment/missing-keys.js';
import { loadExperiment } from '../../experiment/load-experiment.js';
import {
  applyOverrides,
  type OverrideFlags,
  parseNumberFlag,
  warningsAfterOverrides,
} from '../../experiment/overrides.js';
import { resolveModels } from '../../experiment/resolve-models.js';
import type { Experiment } from '../../experiment/types.js';
import { isolationWarning } from '../../sandbox/run-isolation.js';
import { findProjectRoot } from '../../project.js';
import { currentProcessIdentity } from '../../run/process-identity.js';
import { DEFAULT_LEVEL, DEFAULT_RESAMPLES } from '../../stats/bootstrap.js';
import { formatCalibration } from '../../ui/format-calibration.js';
import { formatProblems } from '../../ui/format-problems.js';
import { terminal } from '../../ui/terminal.js';
import { runsDirOf } from '../runs-dir-option.js';
import { trapInterrupts } from '../trap-interrupts.js';

export interface CalibrateOptions
  extends Pick<OverrideFlags, 'provider' | 'judgeSamples' | 'concurrency' | 'seed'> {
  labels?: string;
  json?: boolean;
  failUnderKappa?: string;
  /** commander's `--no-probes`: false when given. */
  probes?: boolean;
}

export default async function calibrateCommand(
  ref: string,
  options: CalibrateOptions,
  command: Command,
): Promise<number> {
  const term = terminal();
  const env = process.env;
  const cwd = process.cwd();
  const threshold =
    options.failUnderKappa === undefined
      ? undefined
      : parseNumberFlag('fail-under-kappa', options.failUnderKappa, { min: -1, max: 1 });

  const loaded = await loadExperiment(ref, { cwd, env });
  const labelsFile =
    options.labels === undefined ? join(loaded.experiment.dir, LABELS_FILE) : resolve(cwd, options.labels);
  const read = await readLabels(labelsFile, { experiment: loaded.experiment });
  const flags: OverrideFlags = {
    ...(options.provider === undefined ? {} : { provider: options.provider }),
    ...(options.judgeSamples === undefined ? {} : { judgeSamples: options.judgeSamples }),
    ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
    ...(options.seed === undefined ? {} : { seed: options.seed }),
  };
  const { experiment, overrides, notes } = applyOverrides(withGrader(loaded.experiment, read.labels), flags);
  const warnings = [
    ...warningsAfterOverrides(loaded.problems, loaded.experiment, experiment),
    ...read.warnings,
  ];
  if (warnings.length > 0) term.err(formatProblems(warnings, term.colors, cwd));
  for (const note of notes) term.err(term.colors.yellow(`note: ${note}`));
  const isolation = isolationWarning(experiment);
  if (isolation !== undefined) term.err(term.colors.yellow(`warning: ${isolation}`));
  refuseMissingKeys(experiment, env, calledRoles(read.labels));

  const controller = new AbortController();
  const stopSignals = trapInterrupts(term, controller, 'the calibration');
  let result: Awaited<ReturnType<typeof runCalibrate>>;
  try {
    term.err(
      term.colors.dim(
        `calibrating ${experiment.name}'s ${calledRoles(read.labels).join(' and ')} on ${labelledOutputs(read.labels.length)}…`,
      ),
    );
    result = await runCalibrate(
      {
        experiment,
        overrides,
        labels: read.labels,
        labelsFile,
        labelsSha256: read.sha256,
        runsDir: runsDirOf(command, env, cwd),
        projectRoot: findProjectRoot(experiment.dir),
        bootstrap: {
          resamples: DEFAULT_RESAMPLES,
          level: DEFAULT_LEVEL,
          seed: experiment.config.search.seed,
        },
        probes: options.probes !== false,
      },
      {
        env,
        now: () => new Date(),
        random: Math.random,
        signal: controller.signal,
        identity: await currentProcessIdentity(),
      },
    );
  } finally {
    stopSignals();
  }
  if (result.status === 'interrupted') {
    term.err(`${result.message}; nothing was measured. Record: ${result.runDir}`);
    return EXIT.interrupted;
  }
  const { calibration } = result;
  term.out(
    options.json
      ? JSON.stringify(calibration, null, 2)
      : formatCalibration(calibration, { colors: term.colors }),
  );
  if (threshold !== undefined) {
    const gate = judgeKappaGate(calibration, threshold);
    if (!gate.passed) {
      term.err(`${term.colors.red('fail-under-kappa')}: ${gate.reason}`);
      return EXIT.failure;
    }
  }
  return EXIT.ok;
}

/**
 * Expectations need a grader; the loader resolves one only when a case has expectations, so
 * labelled expectations get the one the experiment would use (models.grader, else the judge's model).
 */
function withGrader(experiment: Experiment, labels: readonly Label[]): Experiment {
  if (experiment.models.grader !== undefined || !labels.some((l) => l.expectations.length > 0))
    return experiment;
  const { grader } = resolveModels(
    { ...experiment.config.models, generator: experiment.models.generator },
    { hasRubric: experiment.rubric !== undefined, hasExpectations: true },
  );
  return grader === undefined ? experiment : { ...experiment, models: { ...experiment.models, grader } };
}
