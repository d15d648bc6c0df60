/**
 * `autoresearch init <name>`: scaffold experiments/<name>/ and rubrics/<name>.md in the
 * project root, or import a promptfoo config (`--from`). Refuses to overwrite anything.
 */
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { AutoresearchError, EXIT } from '../../errors.js';
import { EXPERIMENT_NAME, scaffoldExperiment } from '../../experiment/scaffold.js';
import { runInitFromPromptfoo } from '../../import/promptfoo/init-from-promptfoo.js';
import { findProjectRoot } from '../../project.js';
import { type Terminal, terminal } from '../../ui/terminal.js';

export interface InitOptions {
  from?: string;
  promptIndex?: string;
}

export interface InitDeps {
  cwd: string;
  term: Terminal;
}

export default async function initCommand(name: string, options: InitOptions = {}): Promise<number> {
  return runInit(name, options, { cwd: process.cwd(), term: terminal() });
}

export async function runInit(name: string, options: InitOptions, deps: InitDeps): Promise<number> {
  if (options.from !== undefined) {
    return runInitFromPromptfoo({
      name,
      from: options.from,
      ...(options.promptIndex === undefined ? {} : { promptIndex: options.promptIndex }),
      cwd: deps.cwd,
      env: process.env,
      term: deps.term,
    });
  }
  if (!EXPERIMENT_NAME.test(name)) {
    throw new AutoresearchError('E_USAGE', `"${name}" is not a valid experiment name`, {
      hint: 'use lowercase letters, digits and dashes, starting with a letter or digit (at most 64 characters)',
    });
  }
  const root = findProjectRoot(deps.cwd);
  const files = scaffoldExperiment(name);
  const experimentDir = join(root, 'experiments', name);
  const taken = [experimentDir, join(root, 'rubrics', `${name}.md`)].filter((p) => existsSync(p));
  if (taken.length > 0) {
    throw new AutoresearchError(
      'E_USAGE',
      `${taken.map((p) => relative(deps.cwd, p) || p).join(' and ')} already exist${taken.length === 1 ? 's' : ''}`,
      {
        hint: 'init never overwrites; pick another name or remove the existing files',
      },
    );
  }
  const written: string[] = [];
  for (const file of files) {
    const path = join(root, file.path);
    await mkdir(dirname(path), { recursive: true });
    // 'wx' fails instead of overwriting if something appeared since the check above.
    await writeFile(path, file.text, { flag: 'wx' });
    written.push(relative(deps.cwd, path) || path);
  }
  const { term } = deps;
  term.out(`Created the experiment "${name}":`);
  for (const path of written) term.out(`  ${path}`);
  term.out('');
  term.out(`Next: edit the prompt and cases, then run  autoresearch validate ${name}`);
  term.out(`      (offline try-out:  autoresearch run ${name} --provider sim)`);
  return EXIT.ok;
}
