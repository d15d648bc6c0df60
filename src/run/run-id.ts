/**
 * Run ids read well in a listing and sort by time: `20261129-2230-cold-email-k3f9` is local
 * yyyymmdd-hhmm, the experiment name and four random base-36 characters. Commands accept any
 * unique prefix.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { AutoresearchError } from '../errors.js';
import { isErrno } from './errno.js';

export interface RunIdSources {
  now: Date;
  /** Uniform in [0, 1), like Math.random. */
  random: () => number;
}

export function createRunId(experiment: string, { now, random }: RunIdSources): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  const date = `${now.getFullYear()}${pad(now.getMonth() + 1)}${pad(now.getDate())}`;
  const time = `${pad(now.getHours())}${pad(now.getMinutes())}`;
  let suffix = '';
  for (let i = 0; i < 4; i++) suffix += Math.min(35, Math.floor(random() * 36)).toString(36);
  return `${date}-${time}-${experiment}-${suffix}`;
}

/** Run folders in `runsDir` (hidden entries skipped), sorted by id. */
export async function listRunIds(runsDir: string): Promise<string[]> {
  try {
    const entries = await readdir(runsDir, { withFileTypes: true });
    return entries
      .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
      .map((entry) => entry.name)
      .sort();
  } catch (error) {
    if (isErrno(error, 'ENOENT')) return [];
    throw error;
  }
}

export function matchRunId(ids: readonly string[], idOrPrefix: string): string[] {
  if (ids.includes(idOrPrefix)) return [idOrPrefix];
  return ids.filter((id) => id.startsWith(idOrPrefix));
}

export async function resolveRunId(
  runsDir: string,
  idOrPrefix: string,
): Promise<{ id: string; dir: string }> {
  const wanted = idOrPrefix.trim();
  if (wanted === '' || /[\\/]/.test(wanted) || wanted.startsWith('.')) {
    throw new AutoresearchError('E_USAGE', `"${idOrPrefix}" is not a run id`, {
      hint: 'give a run id or its beginning, as listed by `autoresearch runs`',
    });
  }
  const ids = await listRunIds(runsDir);
  const matches = matchRunId(ids, wanted);
  const [only] = matches;
  if (only !== undefined && matches.length === 1) return { id: only, dir: join(runsDir, only) };
  if (matches.length > 1) {
    throw new AutoresearchError(
      'E_USAGE',
      `"${wanted}" matches ${matches.length} runs: ${listIds(matches)}`,
      {
        hint: 'give more of the id so only one run matches',
      },
    );
  }
  const recent = ids.slice(-5).reverse();
  throw new AutoresearchError('E_NOT_FOUND', `no run matches "${wanted}" in ${runsDir}`, {
    hint:
      recent.length > 0
        ? `recent runs: ${listIds(recent)} (all of them: autoresearch runs)`
        : 'there are no runs there yet; pass --runs-dir or set AUTORESEARCH_RUNS_DIR if they live elsewhere',
  });
}

function listIds(ids: readonly string[]): string {
  const shown = ids.slice(0, 8).join(', ');
  return ids.length > 8 ? `${shown} and ${ids.length - 8} more` : shown;
}
