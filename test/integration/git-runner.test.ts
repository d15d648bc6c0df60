import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GitCommandError, GitUnavailableError } from '../../src/git/git-errors.js';
import { createGitRunner } from '../../src/git/git-runner.js';
import { createTempRepo, type TempRepo } from '../helpers/temp-repo.js';

const EMPTY_BLOB = 'e69de29bb2d1d6434b8b29ae775ad8c2e48c5391';

const repos: TempRepo[] = [];
afterEach(async () => {
  await Promise.all(repos.splice(0).map((r) => r.cleanup()));
});

async function setup(): Promise<TempRepo> {
  const temp = await createTempRepo({ files: { 'a.txt': 'a\n' } });
  repos.push(temp);
  return temp;
}

describe('createGitRunner (simple-git)', () => {
  it('keeps stdout byte for byte, final newline included', async () => {
    const temp = await setup();
    const git = createGitRunner(temp.dir, temp.env);
    const blob = (await git(['hash-object', '-w', '--stdin'], { input: 'line\n\n' })).stdout.trim();
    expect((await git(['cat-file', 'blob', blob])).stdout).toBe('line\n\n');
  });

  it('closes stdin when no input is given, so a reader sees an empty file', async () => {
    const temp = await setup();
    const git = createGitRunner(temp.dir, temp.env);
    expect((await git(['hash-object', '--stdin'])).stdout.trim()).toBe(EMPTY_BLOB);
  });

  it('decides by exit code: a silent non-zero exit fails unless the caller accepts it', async () => {
    const temp = await setup();
    const git = createGitRunner(temp.dir, temp.env);
    const error = await git(['check-ref-format', 'refs/heads/a..b']).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(GitCommandError);
    expect((error as GitCommandError).gitExitCode).toBe(1);
    expect(await git(['config', '--get', 'no.such'], { okExitCodes: [0, 1] })).toMatchObject({
      exitCode: 1,
      stdout: '',
    });
  });

  it('reports a failing command with its exit code and stderr', async () => {
    const temp = await setup();
    const git = createGitRunner(temp.dir, temp.env);
    const error = await git(['cat-file', 'blob', 'no-such-object']).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(GitCommandError);
    expect((error as GitCommandError).gitExitCode).toBe(128);
    expect((error as GitCommandError).stderr).toMatch(/no-such-object/);
  });

  it('says git is unavailable when it cannot be started', async () => {
    const temp = await setup();
    const git = createGitRunner(temp.dir, { ...temp.env, PATH: temp.home });
    await expect(git(['rev-parse', 'HEAD'])).rejects.toBeInstanceOf(GitUnavailableError);
  });

  it('reports a folder that disappeared as a failed git command', async () => {
    const temp = await setup();
    const git = createGitRunner(temp.path('gone'), temp.env);
    await expect(git(['rev-parse', 'HEAD'])).rejects.toBeInstanceOf(GitCommandError);
  });

  it('passes a private index, -c settings and the user config paths through simple-git’s guards', async () => {
    const temp = await setup();
    const globalConfig = path.join(temp.home, 'work.gitconfig');
    await writeFile(globalConfig, '[user]\n\tname = From Global\n');
    const env = { ...temp.env, GIT_CONFIG_GLOBAL: globalConfig, EDITOR: 'vim', PAGER: 'less' };
    const git = createGitRunner(temp.dir, env);
    expect((await git(['config', '--get', 'user.name'])).stdout).toBe('From Global\n');
    expect((await git(['config', '--get', 'user.name'], { config: ['user.name=Inline'] })).stdout).toBe(
      'Inline\n',
    );
    const indexFile = path.join(temp.home, 'private-index');
    await git(['read-tree', 'HEAD'], { indexFile });
    expect((await git(['ls-files'], { indexFile })).stdout).toBe('a.txt\n');
    await git(['read-tree', '--empty'], { indexFile });
    // The repository's own index still holds the file.
    expect((await git(['ls-files'])).stdout).toBe('a.txt\n');
  });
});
