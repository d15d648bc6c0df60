/**
 * `autoresearch eval <experiment> [--fail-under S] [--split train|holdout|test|all] [--junit FILE]
 * [--json]`: evaluate the current prompt once over the loop's cases (train and holdout; with
 * `--split test` over the sealed test cases alone), print the breakdown (or the
 * JSON report), record it as a run of kind `eval`, and serve CI: exit 1 when the chosen
 * split's score is below S or a gate failed, or when a generation still failed after its
 * retries (the score is then incomplete), JUnit XML for dashboards.
 * Exit codes: 0 ok, 1 run-time failure, incomplete score or --fail-under missed, 2 usage,
 * 130 interrupted.
 */
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { AutoresearchError, EXIT } from '../../errors.js';
import type { ScopeName } from '../../eval-command/eval-report.js';
import { judgeFailUnder, parseFailUnder } from '../../eval-command/fail-under.js';
import {
  countGenerationFailures,
  describeGenerationFailures,
} from '../../eval-command/generation-failures.js';
import { EVAL_ROLES } from '../../eval-command/eval-roles.js';
import { runEval } from '../../eval-command/run-eval.js';
import { loadExperiment } from '../../experiment/load-experiment.js';
import { loopCases, testCases } from '../../experiment/loop-cases.js';
import { refuseMissingKeys } from '../../experiment/missing-keys.js';
import { isolationWarning } from '../../sandbox/run-isolation.js';
import {
  applyOverrides,
  type OverrideFlags,
  providerOf,
  warningsAfterOverrides,
} from '../../experiment/overrides.js';
import { writeJunitFile } from '../../report/junit.js';
import type { RunEvent } from '../../run/events.js';
import { currentProcessIdentity } from '../../run/process-identity.js';
import { runsDirOf } from '../runs-dir-option.js';
import { trapInterrupts } from '../trap-interrupts.js';
import { findProjectRoot } from '../../project.js';
import { formatEval } from '../../ui/format-eval.js';
import { formatProblems } from '../../ui/format-problems.js';
import { type Terminal, terminal } from '../../ui/terminal.js';

export interface EvalOptions extends OverrideFlags {
  failUnder?: string;
  split?: ScopeName;
  junit?: string;
  json?: boolean;
}

/** Budget and search flags steer a run's loop; an evaluation has none. */
const LOOP_ONLY_FLAGS = ['iterations', 'hours', 'usd', 'patience', 'target', 'candidates'] as const;

export default async function evalCommand(
  ref: string,
  options: EvalOptions,
  command: Command,
): Promise<number> {
  const term = terminal();
  const env = process.env;
  const cwd = process.cwd();
  const threshold = options.failUnder === undefined ? undefined : parseFailUnder(options.failUnder);
  const split: ScopeName = options.split ?? 'all';

  const loaded = await loadExperiment(ref, { cwd, env, ...providerOf(options) });
  const flags: OverrideFlags = { ...options };
  const ignored = LOOP_ONLY_FLAGS.filter((flag) => flags[flag] !== undefined);
  for (const flag of LOOP_ONLY_FLAGS) delete flags[flag];
  const { experiment, overrides, notes } = applyOverrides(loaded.experiment, flags);
  const warnings = warningsAfterOverrides(loaded.problems, loaded.experiment, experiment);
  if (warnings.length > 0) term.err(formatProblems(warnings, term.colors, cwd));
  for (const note of notes) term.err(term.colors.yellow(`note: ${note}`));
  const isolation = isolationWarning(experiment);
  if (isolation !== undefined) term.err(term.colors.yellow(`warning: ${isolation}`));
  if (ignored.length > 0) {
    term.err(
      term.colors.yellow(
        `note: ${ignored.map((f) => `--${f}`).join(', ')} ha${ignored.length === 1 ? 's' : 've'} no effect on eval`,
      ),
    );
  }
  refuseMissingKeys(experiment, env, EVAL_ROLES);
  if (split === 'test' && testCases(experiment).length === 0) {
    throw new AutoresearchError('E_USAGE', '--split test: this experiment has no test cases', {
      hint: 'set search.test (a share, e.g. 0.2) or label cases `split: test`, or use --split train|holdout|all',
    });
  }
  if (
    threshold !== undefined &&
    split === 'holdout' &&
    !experiment.cases.some((c) => c.split === 'holdout')
  ) {
    throw new AutoresearchError('E_USAGE', '--split holdout: this experiment has no holdout cases', {
      hint: 'set search.holdout (or split: holdout on some cases), or use --split train|all',
    });
  }

  const runsDir = runsDirOf(command, env, cwd);
  const controller = new AbortController();
  const stopSignals = trapInterrupts(term, controller, 'the evaluation');
  let result: Awaited<ReturnType<typeof runEval>>;
  try {
    const samples = experiment.config.search.samples;
    const evaluated =
      split === 'test' ? `${testCases(experiment).length} test` : `${loopCases(experiment).length}`;
    term.err(
      term.colors.dim(
        `evaluating ${experiment.name}: ${evaluated} cases × ${samples} sample${samples === 1 ? '' : 's'}…`,
      ),
    );
    result = await runEval(
      { experiment, overrides, runsDir, projectRoot: findProjectRoot(experiment.dir), split },
      {
        env,
        now: () => new Date(),
        random: Math.random,
        signal: controller.signal,
        identity: await currentProcessIdentity(),
        onEvent: showPhases(term),
      },
    );
  } finally {
    stopSignals();
  }

  if (result.status === 'interrupted') {
    term.err(`${result.message}; nothing was scored. Record: ${result.runDir}`);
    return EXIT.interrupted;
  }
  const report =
    threshold === undefined
      ? result.report
      : { ...result.report, failUnder: judgeFailUnder(result.report, threshold, split) };
  if (options.junit !== undefined) await writeJunitFile(resolve(cwd, options.junit), report);
  term.out(options.json ? JSON.stringify(report, null, 2) : formatEval(report, { colors: term.colors, cwd }));
  if (report.status === 'error') {
    term.err(
      `${term.colors.red('error')}: the evaluation failed (${report.error?.kind}): ${report.error?.message}`,
    );
    return EXIT.failure;
  }
  const generation = countGenerationFailures(report);
  if (generation.failed > 0) {
    term.err(
      `${term.colors.red('error')}: the score is incomplete: ${describeGenerationFailures(generation)}`,
    );
    return EXIT.failure;
  }
  if (report.failUnder && !report.failUnder.passed) {
    term.err(`${term.colors.red('fail-under')}: ${report.failUnder.reason}`);
    return EXIT.failure;
  }
  return EXIT.ok;
}

/** A transient phase line on an interactive stderr, nothing in logs; warnings in both. */
function showPhases(term: Terminal): (event: RunEvent) => void {
  let shown = false;
  return (event) => {
    if (shown) term.rewind(1, 'err');
    shown = false;
    // A warning (a CLI ignoring a setting) is worth seeing in a log too.
    if (event.type === 'warning') term.err(term.colors.yellow(`warning: ${event.message}`));
    if (!term.errIsTTY) return;
    if (event.type === 'phase') {
      term.err(term.colors.dim(`  … ${event.phase}`));
      shown = true;
    }
  };
}
