/**
 * `on_finish:` (docs/design/cost-engine.md) is checked by `validate` like any other key: its shape
 * by the schema, and here whether its program can be found. A program that is missing is a warning,
 * not an error: when the run stops its failure is one too, and the night's results stand either
 * way.
 */
import { accessSync, constants, existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { Problem } from '../errors.js';
import { resolveProgramArgv } from '../sandbox/resolve-program-argv.js';
import type { Where } from './referenced-file.js';

/** Whether `file` (as resolved: absolute, or a bare name) names a program that can be started. */
export function programExists(file: string, env: NodeJS.ProcessEnv): boolean {
  const runnable = (path: string) => {
    try {
      accessSync(path, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  };
  if (file.includes('/')) return runnable(file);
  return (env['PATH'] ?? '').split(delimiter).some((dir) => dir !== '' && runnable(join(dir, file)));
}

/** The argv as the run starts it: path-like arguments resolved against the experiment's folder. */
export function resolveOnFinish(argv: readonly string[], experimentDir: string): string[] {
  return resolveProgramArgv(argv, experimentDir, existsSync);
}

export function validateOnFinish(
  argv: readonly string[] | undefined,
  experimentDir: string,
  env: NodeJS.ProcessEnv,
  where: Where,
): Problem[] {
  if (argv === undefined) return [];
  const [program] = resolveOnFinish(argv, experimentDir);
  if (program === undefined || programExists(program, env)) return [];
  return [
    {
      severity: 'warning',
      location: { file: where.file, ...where.locate(['on_finish', 0]) },
      keyPath: 'on_finish[0]',
      message: `on_finish: \`${argv[0]}\` is not a program that can be started (${program.includes('/') ? 'no such executable file' : 'not found on PATH'})`,
      hint: 'name a program on PATH (e.g. curl, notify-send) or a path relative to the experiment folder; when the run stops, its failure is only a warning',
    },
  ];
}
