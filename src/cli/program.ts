/**
 * The command tree. It only declares commands and flags; each command's work lives in
 * `commands/<name>.ts`, imported when that command runs, so `--help` and the read commands
 * load none of what `run` needs.
 */
import { Command, Option } from 'commander';
import { PROVIDERS } from '../providers/registry.js';
import { handleFatal } from './handle-fatal.js';
import { VERSION } from '../version.js';

/** `--provider`'s default when the flag is not given: an offline shell (`sim`) without editing every line. */
export const PROVIDER_ENV = 'AUTORESEARCH_PROVIDER';

/** A command's default export: its arguments as commander passes them; returns the exit code. */
type Action = (...args: never[]) => Promise<number | undefined>;

/**
 * Each command's module, imported only when that command runs. Spelled out (not a template
 * path) so the compiler checks every file exists.
 */
const COMMANDS = {
  apply: () => import('./commands/apply.js'),
  calibrate: () => import('./commands/calibrate.js'),
  compare: () => import('./commands/compare.js'),
  diff: () => import('./commands/diff.js'),
  eval: () => import('./commands/eval.js'),
  grade: () => import('./commands/grade.js'),
  init: () => import('./commands/init.js'),
  judge: () => import('./commands/judge.js'),
  prune: () => import('./commands/prune.js'),
  report: () => import('./commands/report.js'),
  resume: () => import('./commands/resume.js'),
  run: () => import('./commands/run.js'),
  runs: () => import('./commands/runs.js'),
  show: () => import('./commands/show.js'),
  stop: () => import('./commands/stop.js'),
  validate: () => import('./commands/validate.js'),
  watch: () => import('./commands/watch.js'),
} satisfies Record<string, () => Promise<{ default: Action }>>;

/** Lazily import a command's module and run its default export; its return value is the exit code. */
function lazy(name: keyof typeof COMMANDS): (...args: unknown[]) => Promise<void> {
  return async (...args: unknown[]) => {
    try {
      const mod = await COMMANDS[name]();
      // commander passes each action the arguments its declaration promises.
      const code = await (mod.default as (...a: unknown[]) => Promise<number | undefined>)(...args);
      process.exitCode = code ?? 0;
    } catch (error) {
      process.exitCode = handleFatal(error);
    }
  };
}

/** Budget and search flags that steer a run's loop: `eval` accepts them only to say they do nothing, so its help leaves them out. */
const LOOP_ONLY = new Set(['--iterations', '--hours', '--usd', '--patience', '--target', '--candidates']);

const BATCH_HELP = 'generator, built-in judge and grader calls through the provider batch API (half price)';

function addOverrides(
  command: Command,
  {
    relative = false,
    loop = true,
    batch = true,
  }: { relative?: boolean; loop?: boolean; batch?: boolean } = {},
): Command {
  const n = relative ? 'N|+N' : 'N';
  const options = [
    new Option(
      `--iterations <${n}>`,
      relative
        ? 'iteration budget (N: new total, +N: N more from where the run stopped)'
        : 'iteration budget',
    ),
    new Option(`--hours <${relative ? 'H|+H' : 'H'}>`, 'active running time budget in hours'),
    new Option(`--usd <${relative ? 'X|+X' : 'X'}>`, 'spending budget in USD'),
    new Option(`--patience <${n}>`, 'stop after N non-improving iterations in a row'),
    new Option('--target <S>', 'stop when the train score reaches S (0..1)'),
    new Option('--candidates <N>', 'proposals per iteration'),
    new Option('--samples <N>', 'generations per case per candidate'),
    new Option('--judge-samples <N>', 'judge scorings per output'),
    new Option('--concurrency <N>', 'parallel model calls'),
    new Option('--seed <N>', 'seed for splits and sampling order'),
    new Option('--provider <name>', 'use this provider for every model (sim = offline simulation)')
      .choices(PROVIDERS)
      .env(PROVIDER_ENV),
  ];
  if (batch) options.push(new Option('--batch', BATCH_HELP));
  for (const option of options) {
    if (!loop && LOOP_ONLY.has(option.long ?? '')) option.hideHelp();
    command.addOption(option);
  }
  return command;
}

export function buildProgram(): Command {
  const program = new Command();
  // Set before subcommands are added so they inherit it: usage errors become exit 2, not 1.
  program.exitOverride();
  program
    .name('autoresearch')
    .description(
      'Optimize a prompt unattended: mutate it, evaluate it with checks, an isolated judge and a grader,\n' +
        'keep what measurably helps, and commit every improvement to git.',
    )
    .version(VERSION, '-V, --version')
    .option(
      '--runs-dir <dir>',
      'where run records live (default: runs/ in the project root, or $AUTORESEARCH_RUNS_DIR)',
    )
    .showHelpAfterError('(run with --help for usage)')
    .configureHelp({ sortSubcommands: false });

  program
    .command('init')
    .description('scaffold experiments/<name>/ and rubrics/<name>.md (or import a promptfoo config)')
    .argument('<name>', 'experiment name: lowercase letters, digits and dashes')
    .option('--from <promptfooconfig.yaml>', 'import a promptfoo config')
    .option('--prompt-index <N>', 'which of the promptfoo prompts to import (0-based)', '0')
    .action(lazy('init'));

  addOverrides(
    program
      .command('validate')
      .description('check an experiment and print the plan and a cost estimate; every problem at once')
      .argument('<experiment>', 'a name under experiments/ or a path to a folder or experiment.yaml')
      .option('--ping', 'make one tiny call per configured model')
      .option('--json', 'machine-readable output')
      .option('--from <run[/member]>', 'check the run --from would start from (as on run)'),
  ).action(lazy('validate'));

  addOverrides(
    program
      .command('eval')
      .description('evaluate the current prompt once (train, holdout and all; or the sealed test cases)')
      .argument('<experiment>', 'a name under experiments/ or a path')
      .option('--fail-under <S>', 'exit 1 when the score is below S')
      .addOption(
        new Option(
          '--split <split>',
          'which score --fail-under reads; test: evaluate only the sealed test cases',
        )
          .choices(['train', 'holdout', 'test', 'all'])
          .default('all'),
      )
      .option('--junit <file>', 'write JUnit XML (one test case per case)')
      .option('--json', 'machine-readable output'),
    { loop: false, batch: false },
  ).action(lazy('eval'));

  program
    .command('calibrate')
    .description('measure the judge against human labels: agreement, kappa and bias probes')
    .argument('<experiment>', 'a name under experiments/ or a path')
    .option('--labels <file>', 'the labelled outputs (default: labels.yaml in the experiment folder)')
    .option('--fail-under-kappa <K>', 'exit 1 when the lowest criterion kappa is below K')
    .option('--no-probes', 'skip the bias probes')
    .option('--judge-samples <N>', 'judge scorings per output')
    .option('--concurrency <N>', 'parallel model calls')
    .option('--seed <N>', 'seed for the judge order and the bootstrap')
    .addOption(
      new Option('--provider <name>', 'use this provider for the judge and grader (sim = offline simulation)')
        .choices(PROVIDERS)
        .env(PROVIDER_ENV),
    )
    .option('--json', 'print calibration.json')
    .action(lazy('calibrate'));

  addOverrides(
    program
      .command('run')
      .description('start an optimization run')
      .argument('<experiment>', 'a name under experiments/ or a path')
      .option(
        '--from <run[/member]>',
        "start from a previous run's best, or one pool member (<run-id>/p3), evaluated afresh as the baseline",
      )
      .option('--detach', 'run in the background; print the run id and log path')
      // Used by --detach to hand the background process the id it already printed.
      .addOption(new Option('--run-id <id>').hideHelp()),
  ).action(lazy('run'));

  addOverrides(
    program
      .command('resume')
      .description('continue a stopped or crashed run without redoing finished work')
      .argument('[run-id]', 'run id, a unique prefix or latest; default: the newest stopped or crashed run')
      .option(
        '--rebaseline',
        'start a new baseline inside the same run (after cases, rubric, checks or models changed)',
      )
      .option('--detach', 'resume in the background')
      // Known only to be refused with a hint: --from starts a new run.
      .addOption(new Option('--from <run>').hideHelp()),
    { relative: true },
  ).action(lazy('resume'));

  program
    .command('stop')
    .description('finish the current iteration, then stop the run')
    .argument('<run-id>', 'run id, a unique prefix, or latest (the newest run; latest~1 the one before)')
    .action(lazy('stop'));

  program
    .command('runs')
    .description('list runs: id, kind, experiment, status, iterations, baseline -> best, cost')
    .option('--json', 'machine-readable output')
    .action(lazy('runs'));

  program
    .command('show')
    .description('per-iteration table of a run, or one iteration in full')
    .argument('<run-id>', 'run id, a unique prefix, or latest (the newest run; latest~1 the one before)')
    .argument(
      '[iteration]',
      'one iteration: its hypothesis, decision, and every case with what it lost points on',
    )
    .option('--json', 'machine-readable output')
    .action(lazy('show'));

  program
    .command('diff')
    .description('prompt diff between two iterations or pool members (default: baseline -> best)')
    .argument('<run-id>', 'run id, a unique prefix, or latest (the newest run; latest~1 the one before)')
    .argument(
      '[a]',
      'iteration number, pool member (p3), "baseline" / "best", or "working" (the prompt file now)',
    )
    .argument(
      '[b]',
      'iteration number, pool member (p3), "baseline" / "best", or "working" (the prompt file now)',
    )
    .option('--word', 'word diff instead of a line diff')
    .option('--json', 'machine-readable output')
    .action(lazy('diff'));

  program
    .command('compare')
    .description(
      "two runs side by side: how each ended, case by case under each run's best, the best prompts' diff",
    )
    .argument('<run-a>', 'run id, a unique prefix, or latest (the newest run; latest~1 the one before)')
    .argument('<run-b>', 'run id, a unique prefix, or latest (the newest run; latest~1 the one before)')
    .option('--json', 'machine-readable output')
    .action(lazy('compare'));

  program
    .command('watch')
    .description('live view of a running run (default: the newest running run)')
    .argument('[run-id]', 'run id, a unique prefix, or latest (the newest run; latest~1 the one before)')
    .action(lazy('watch'));

  program
    .command('report')
    .description('write or refresh runs/<id>/report.html')
    .argument('<run-id>', 'run id, a unique prefix, or latest (the newest run; latest~1 the one before)')
    .option('--serve', 'serve it on 127.0.0.1 (read-only), refreshing while the run goes on')
    .option('--port <N>', 'port for --serve (default: any free port)')
    .option(
      '--beside <other-run-id>',
      'the report with another run beside it (as `compare` sees the two), in runs/<id>/beside-<other>.html',
    )
    .action(lazy('report'));

  program
    .command('apply')
    .description("write the run's best prompt (or a pool member's) into the working tree")
    .argument('<run-id>', 'run id, a unique prefix, or latest (the newest run; latest~1 the one before)')
    .argument('[member]', 'a pool member of a pareto run (p3) instead of the best')
    .option('--force', 'overwrite even if the working-tree prompt changed after the run started')
    .action(lazy('apply'));

  program
    .command('prune')
    .description("delete a run's pool refs (refs/autoresearch/<experiment>/<run-id>/pool/*)")
    .argument('<run-id>', 'run id, a unique prefix, or latest (the newest run; latest~1 the one before)')
    .action(lazy('prune'));

  program
    .command('judge')
    .description('run the isolated judge alone on a folder of .txt outputs')
    .argument('<outputs-dir>', 'folder of .txt outputs')
    .requiredOption('--rubric <file>', 'rubric markdown file')
    .option('--model <provider:model>', 'judge model, e.g. anthropic:claude-sonnet-4-5 or sim')
    .option('--samples <N>', 'scorings per output')
    .option('--out <file>', 'where to write the scores (default: judge-scores.json in the current folder)')
    .action(lazy('judge'));

  program
    .command('grade')
    .description('run the grader alone on a case folder (outputs/*.txt, transcript.md)')
    .argument('<case-dir>', 'case folder')
    .requiredOption('--expectations <file>', 'expectations: YAML/JSON list of strings, or one per line')
    .option('--model <provider:model>', 'grader model, e.g. anthropic:claude-sonnet-4-5 or sim')
    .option('--out <file>', 'where to write the grading (default: grading.json in the case folder)')
    .action(lazy('grade'));

  return program;
}
