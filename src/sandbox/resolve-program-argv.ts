/**
 * A judge or grader program runs with the sandbox as its cwd, so relative paths in its argv
 * (e.g. `[node, judges/my-judge.mjs]`) are resolved first against the project root. Bare
 * program names (`node`, `python3`) and flags are left for PATH and the program.
 */
import { isAbsolute, resolve } from 'node:path';

export function resolveProgramArgv(
  argv: readonly string[],
  base: string,
  exists: (path: string) => boolean,
): string[] {
  return argv.map((arg) => {
    if (arg === '' || arg.startsWith('-') || isAbsolute(arg)) return arg;
    const explicit =
      arg.startsWith('./') || arg.startsWith('../') || arg.startsWith('.\\') || arg.startsWith('..\\');
    const pathLike = arg.includes('/') || arg.includes('\\');
    if (explicit || (pathLike && exists(resolve(base, arg)))) return resolve(base, arg);
    return arg;
  });
}
