/**
 * Where the user's project is (docs/design/project-layout.md): the nearest folder upward that holds
 * `experiments/`, else the current directory. The tool works the same in this repository and when
 * installed into a user's own.
 */
import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

export function findProjectRoot(cwd: string = process.cwd()): string {
  let dir = resolve(cwd);
  for (;;) {
    const candidate = join(dir, 'experiments');
    if (existsSync(candidate) && statSync(candidate).isDirectory()) return dir;
    const parent = dirname(dir);
    if (parent === dir) return resolve(cwd);
    dir = parent;
  }
}
