/** The IO step of an import: writes the planned files, never over anything that exists. */
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { AutoresearchError } from '../../errors.js';
import type { ImportedFile } from './import-promptfoo.js';

/** Refuses when the experiment's folder (or any planned file) already exists; returns the absolute paths written. */
export async function writeImportedFiles(
  projectRoot: string,
  name: string,
  files: readonly ImportedFile[],
  cwd: string,
): Promise<string[]> {
  const taken = [
    join(projectRoot, 'experiments', name),
    ...files.map((f) => join(projectRoot, f.path)),
  ].filter((p) => existsSync(p));
  if (taken.length > 0) {
    throw new AutoresearchError(
      'E_USAGE',
      `${relative(cwd, taken[0] as string) || taken[0]} already exists`,
      {
        hint: 'init never overwrites; pick another name or remove the existing experiment',
      },
    );
  }
  const written: string[] = [];
  for (const file of files) {
    const path = join(projectRoot, file.path);
    await mkdir(dirname(path), { recursive: true });
    // 'wx' fails instead of overwriting if something appeared since the check above.
    await writeFile(path, file.text, { flag: 'wx' });
    written.push(path);
  }
  return written;
}
