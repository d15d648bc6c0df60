/**
 * `autoresearch init <name> --from promptfooconfig.yaml [--prompt-index N]`: plans the import,
 * writes the experiment, lists what was not imported, and validates the result — everything
 * the command prints goes through the terminal module. Returns the exit code.
 */
import { existsSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { AutoresearchError, EXIT, ValidationError } from '../../errors.js';
import { loadExperimentFile } from '../../experiment/load-experiment.js';
import { EXPERIMENT_NAME } from '../../experiment/scaffold.js';
import { findProjectRoot } from '../../project.js';
import { formatProblems } from '../../ui/format-problems.js';
import { type Terminal, terminal } from '../../ui/terminal.js';
import { type ImportPlan, importPromptfoo } from './import-promptfoo.js';
import { writeImportedFiles } from './write-import.js';

export interface InitFromPromptfooOptions {
  name: string;
  /** The promptfoo config, relative to cwd. */
  from: string;
  /** As typed after --prompt-index (a 0-based number). */
  promptIndex?: string | number | undefined;
  cwd: string;
  env: NodeJS.ProcessEnv;
  term?: Terminal;
}

function parsePromptIndex(raw: string | number | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const text = String(raw).trim();
  if (!/^\d+$/.test(text)) {
    throw new AutoresearchError('E_USAGE', `--prompt-index must be a whole number from 0 (got "${text}")`, {
      hint: 'prompts are numbered from 0 in the order the config lists them',
    });
  }
  return Number.parseInt(text, 10);
}

function printPlan(plan: ImportPlan, name: string, written: string[], cwd: string, term: Terminal): void {
  const c = term.colors;
  term.out(`Imported the promptfoo config as the experiment "${name}":`);
  for (const path of written) term.out(`  ${relative(cwd, path) || path}`);
  term.out('');
  if (plan.unmapped.length === 0) term.out('Everything in the config was imported.');
  else {
    term.out(c.yellow(`Not imported (${plan.unmapped.length}) — also listed at the top of experiment.yaml:`));
    for (const item of plan.unmapped) term.out(`  - ${item.what}: ${item.why}`);
  }
  if (plan.notes.length > 0) {
    term.out('');
    term.out('Notes:');
    for (const note of plan.notes) term.out(`  - ${note}`);
  }
}

async function validateWritten(
  file: string,
  name: string,
  env: NodeJS.ProcessEnv,
  cwd: string,
  term: Terminal,
): Promise<number> {
  const c = term.colors;
  try {
    const { experiment, problems } = await loadExperimentFile(file, env);
    const holdout = experiment.cases.filter((x) => x.split === 'holdout').length;
    term.out('');
    term.out(
      `${c.green('Valid')}: ${experiment.cases.length} case${experiment.cases.length === 1 ? '' : 's'} (${experiment.cases.length - holdout} train, ${holdout} holdout), ${experiment.checks.length} shared check${experiment.checks.length === 1 ? '' : 's'}.`,
    );
    if (problems.length > 0) term.out(formatProblems(problems, c, cwd));
    term.out('');
    term.out(`Next: review the files, then run  autoresearch validate ${name}`);
    term.out(`      (offline try-out:  autoresearch run ${name} --provider sim)`);
    return EXIT.ok;
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    term.err(formatProblems(error.problems, c, cwd));
    term.err(
      c.red(
        'The imported experiment does not validate. This is a bug in the promptfoo importer; the files were kept so you can fix them by hand.',
      ),
    );
    return EXIT.failure;
  }
}

export async function runInitFromPromptfoo(options: InitFromPromptfooOptions): Promise<number> {
  const term = options.term ?? terminal();
  try {
    if (!EXPERIMENT_NAME.test(options.name)) {
      throw new AutoresearchError('E_USAGE', `"${options.name}" is not a valid experiment name`, {
        hint: 'use lowercase letters, digits and dashes, starting with a letter or digit (at most 64 characters)',
      });
    }
    const promptIndex = parsePromptIndex(options.promptIndex);
    const configPath = resolve(options.cwd, options.from);
    if (!existsSync(configPath)) {
      throw new AutoresearchError('E_NOT_FOUND', `${options.from} does not exist`, {
        hint: 'pass the path of your promptfooconfig.yaml, relative to the current folder',
      });
    }
    const projectRoot = findProjectRoot(options.cwd);
    if (existsSync(join(projectRoot, 'experiments', options.name))) {
      throw new AutoresearchError(
        'E_USAGE',
        `${relative(options.cwd, join(projectRoot, 'experiments', options.name))} already exists`,
        {
          hint: 'init never overwrites; pick another name or remove the existing experiment',
        },
      );
    }
    const plan = await importPromptfoo({
      configPath,
      name: options.name,
      projectRoot,
      ...(promptIndex === undefined ? {} : { promptIndex }),
    });
    const written = await writeImportedFiles(projectRoot, options.name, plan.files, options.cwd);
    printPlan(plan, options.name, written, options.cwd, term);
    return await validateWritten(
      join(projectRoot, 'experiments', options.name, 'experiment.yaml'),
      options.name,
      options.env,
      options.cwd,
      term,
    );
  } catch (error) {
    if (!(error instanceof AutoresearchError)) throw error;
    term.err(`${term.colors.red('error')}: ${error.message}`);
    if (error.hint) term.err(term.colors.dim(`hint: ${error.hint}`));
    return error.exitCode;
  }
}
