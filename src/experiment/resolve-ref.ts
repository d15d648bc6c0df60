/**
 * `<experiment>` on the command line (docs/design/commands-and-exit-codes.md): a name under
 * `<project root>/experiments/`, a folder holding experiment.yaml, or the path of an experiment
 * YAML file.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { AutoresearchError } from '../errors.js';
import { findProjectRoot } from '../project.js';

export const EXPERIMENT_FILE = 'experiment.yaml';

export function resolveExperimentFile(ref: string, cwd: string): string {
  const asPath = resolve(cwd, ref);
  if (isFile(asPath)) return asPath;
  if (isDirectory(asPath) && isFile(join(asPath, EXPERIMENT_FILE))) return join(asPath, EXPERIMENT_FILE);
  const root = findProjectRoot(cwd);
  const byName = join(root, 'experiments', ref, EXPERIMENT_FILE);
  if (!ref.includes('/') && !ref.includes('\\') && isFile(byName)) return byName;

  const known = listExperiments(root);
  const hint =
    isDirectory(asPath) && !isFile(join(asPath, EXPERIMENT_FILE))
      ? `${asPath} has no ${EXPERIMENT_FILE}`
      : known.length > 0
        ? `experiments in ${join(root, 'experiments')}: ${known.join(', ')}`
        : 'create one with `autoresearch init <name>`';
  throw new AutoresearchError('E_NOT_FOUND', `experiment \`${ref}\` not found`, { hint });
}

export function listExperiments(root: string): string[] {
  const dir = join(root, 'experiments');
  if (!isDirectory(dir)) return [];
  return readdirSync(dir)
    .filter((name) => isFile(join(dir, name, EXPERIMENT_FILE)))
    .sort();
}

function isFile(path: string): boolean {
  return existsSync(path) && statSync(path).isFile();
}

function isDirectory(path: string): boolean {
  return existsSync(path) && statSync(path).isDirectory();
}
