import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureRunsDir, findProjectRoot, resolveRunsDir } from '../../../src/run/runs-dir.js';

let base: string;
beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'ar-root-')));
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('findProjectRoot', () => {
  it('finds the nearest folder upward holding experiments/', async () => {
    await mkdir(join(base, 'proj', 'experiments', 'x'), { recursive: true });
    await mkdir(join(base, 'proj', 'src', 'deep'), { recursive: true });
    expect(await findProjectRoot(join(base, 'proj', 'src', 'deep'))).toBe(join(base, 'proj'));
    expect(await findProjectRoot(join(base, 'proj', 'experiments', 'x'))).toBe(join(base, 'proj'));
    expect(await findProjectRoot(join(base, 'proj'))).toBe(join(base, 'proj'));
  });

  it('ignores a file named experiments and falls back to the current folder', async () => {
    await mkdir(join(base, 'lone', 'inner'), { recursive: true });
    await writeFile(join(base, 'lone', 'experiments'), 'not a folder');
    expect(await findProjectRoot(join(base, 'lone', 'inner'))).toBe(join(base, 'lone', 'inner'));
  });
});

describe('resolveRunsDir', () => {
  it('prefers the flag, then AUTORESEARCH_RUNS_DIR, then runs/ in the root', () => {
    const cwd = '/work/here';
    const root = '/work';
    const env = { AUTORESEARCH_RUNS_DIR: 'from-env' };
    expect(resolveRunsDir({ flag: 'flagged', env, cwd, root })).toBe('/work/here/flagged');
    expect(resolveRunsDir({ flag: '/abs', env, cwd, root })).toBe('/abs');
    expect(resolveRunsDir({ env, cwd, root })).toBe('/work/here/from-env');
    expect(resolveRunsDir({ env: { AUTORESEARCH_RUNS_DIR: '' }, cwd, root })).toBe('/work/runs');
    expect(resolveRunsDir({ flag: undefined, env: {}, cwd, root })).toBe('/work/runs');
  });
});

describe('ensureRunsDir', () => {
  it('creates the folder with a .gitignore holding "*", and leaves an existing one alone', async () => {
    const runs = join(base, 'a', 'runs');
    await ensureRunsDir(runs);
    expect(await readFile(join(runs, '.gitignore'), 'utf8')).toBe('*\n');
    await writeFile(join(runs, '.gitignore'), '*\n!keep\n');
    await ensureRunsDir(runs);
    expect(await readFile(join(runs, '.gitignore'), 'utf8')).toBe('*\n!keep\n');
  });
});
