/** Reading the files a promptfoo config points at; a file that cannot be read stops the import. */
import { readFile } from 'node:fs/promises';
import { relative } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { AutoresearchError } from '../../errors.js';

export async function readTextFile(absolute: string, purpose: string, cwd: string): Promise<string> {
  try {
    return await readFile(absolute, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === 'ENOENT' ? 'does not exist' : code === 'EISDIR' ? 'is a folder' : 'cannot be read';
    throw new AutoresearchError('E_CONFIG', `${purpose} ${displayPath(absolute, cwd)} ${reason}`, {
      hint: 'file:// paths in a promptfoo config are relative to the config file',
    });
  }
}

/** JSON, YAML or JSON Lines by extension; anything else is read as YAML (a superset of JSON). */
export function parseDataText(text: string, ext: string, label: string): unknown {
  try {
    if (ext === '.json') return JSON.parse(text);
    if (ext === '.jsonl') {
      return text
        .split(/\r?\n/)
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as unknown);
    }
    return parseYaml(text);
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new AutoresearchError(
      'E_CONFIG',
      `${label} is not valid ${ext === '.json' || ext === '.jsonl' ? 'JSON' : 'YAML'}: ${message}`,
      {
        hint: 'fix the file so promptfoo itself can read it, then import again',
      },
    );
  }
}

export function displayPath(absolute: string, cwd: string): string {
  const rel = relative(cwd, absolute);
  return rel === '' || rel.startsWith('..') ? absolute : rel;
}
