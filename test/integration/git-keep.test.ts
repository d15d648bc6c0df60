import { chmod, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  BranchMovedError,
  branchHead,
  commitKeep,
  createRunBranch,
  findRunCommits,
  formatKeepMessage,
  type GitRepo,
  openRepo,
  type RunBranch,
} from '../../src/git/index.js';
import { moveBranch } from '../../src/git/refs.js';
import { createTempRepo, TEST_AUTHOR, type TempRepo } from '../helpers/temp-repo.js';

const PROMPT = 'experiments/demo/prompt.md';

const repos: TempRepo[] = [];
afterEach(async () => {
  await Promise.all(repos.splice(0).map((r) => r.cleanup()));
});

async function setup(
  options: Parameters<typeof createTempRepo>[0] = {},
  env?: (temp: TempRepo) => NodeJS.ProcessEnv,
): Promise<{ temp: TempRepo; git: GitRepo }> {
  const temp = await createTempRepo({ files: { [PROMPT]: 'Hello {{name}}.\n' }, ...options });
  repos.push(temp);
  const git = await openRepo(temp.dir, { env: env?.(temp) ?? temp.env });
  if (git === null) throw new Error('expected a repository');
  return { temp, git };
}

function keep(
  git: GitRepo,
  temp: TempRepo,
  run: RunBranch,
  expectedHead: string,
  iteration: number,
  to: number,
) {
  return commitKeep({
    repo: git,
    branch: run.branch,
    expectedHead,
    promptPath: temp.path(PROMPT),
    promptText: `Prompt of iteration ${iteration}.\n`,
    message: formatKeepMessage({
      experiment: 'demo',
      runId: run.branch.split('/')[2] ?? '',
      iteration,
      from: to - 0.1,
      to,
      hypothesis: `Hypothesis ${iteration}.`,
    }),
  });
}

function startRun(git: GitRepo, temp: TempRepo, runId: string, promptText = 'Hello {{name}}.\n') {
  return createRunBranch({ repo: git, experiment: 'demo', runId, promptPath: temp.path(PROMPT), promptText });
}

describe('commitKeep compare-and-swap', () => {
  it('refuses when the branch moved and leaves it where it is', async () => {
    const { temp, git } = await setup();
    const run = await startRun(git, temp, 'run-1');
    const first = await keep(git, temp, run, run.head, 1, 0.5);
    // Someone else moves the run branch back.
    await temp.git(['update-ref', `refs/heads/${run.branch}`, run.head]);
    const error = await keep(git, temp, run, first, 2, 0.6).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BranchMovedError);
    expect(error).toMatchObject({ code: 'E_GIT', expected: first, actual: run.head });
    expect(await branchHead({ repo: git, branch: run.branch })).toBe(run.head);
  });

  it('the ref update itself is compare-and-swap, not only the check before it', async () => {
    const { temp, git } = await setup();
    const run = await startRun(git, temp, 'run-1');
    const first = await keep(git, temp, run, run.head, 1, 0.5);
    const error = await moveBranch(git, {
      branch: run.branch,
      next: run.head,
      expected: 'f'.repeat(40),
      reason: 'x',
    })
      .then(() => null)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BranchMovedError);
    expect(await branchHead({ repo: git, branch: run.branch })).toBe(first);
  });

  it('refuses a keep that does not change the prompt', async () => {
    const { temp, git } = await setup();
    const run = await startRun(git, temp, 'run-1');
    const first = await keep(git, temp, run, run.head, 1, 0.5);
    await expect(keep(git, temp, run, first, 1, 0.5)).rejects.toThrow(/nothing to commit/);
    expect(await branchHead({ repo: git, branch: run.branch })).toBe(first);
  });

  it('keeps an executable prompt executable', async () => {
    const { temp, git } = await setup();
    await chmod(temp.path(PROMPT), 0o755);
    await temp.git([
      '-c',
      'user.name=t',
      '-c',
      'user.email=t@t',
      'commit',
      '-q',
      '--no-gpg-sign',
      '-am',
      'mode',
    ]);
    const run = await startRun(git, temp, 'run-1');
    const sha = await keep(git, temp, run, run.head, 1, 0.5);
    expect(await temp.git(['ls-tree', sha, '--', PROMPT])).toMatch(/^100755 blob /);
  });
});

describe('findRunCommits', () => {
  it('round-trips the baseline and every keep, and stops at the base', async () => {
    const { temp, git } = await setup();
    // An earlier run whose keeps were merged into the base of the next run.
    const earlier = await startRun(git, temp, 'run-0');
    const earlierKeep = await keep(git, temp, earlier, earlier.head, 4, 0.4);
    await temp.git(['merge', '--quiet', '--ff-only', earlier.branch]);

    const run = await startRun(git, temp, 'run-1', 'Working-tree edit.\n');
    expect(run.base).toBe(earlierKeep);
    const one = await keep(git, temp, run, run.head, 3, 0.612);
    // A keep committed by a process that crashed before journaling it is still found.
    const two = await keep(git, temp, run, one, 8, 0.7684);

    expect(await findRunCommits({ repo: git, branch: run.branch })).toEqual([
      { sha: run.head, iteration: 0, score: null, pool: null },
      { sha: one, iteration: 3, score: 0.612, pool: null },
      { sha: two, iteration: 8, score: 0.768, pool: null },
    ]);
    expect(await findRunCommits({ repo: git, branch: earlier.branch })).toEqual([
      { sha: earlierKeep, iteration: 4, score: 0.4, pool: null },
    ]);
  });

  it('returns nothing for a fresh branch and fails clearly for a missing one', async () => {
    const { temp, git } = await setup();
    const run = await startRun(git, temp, 'run-1');
    expect(await findRunCommits({ repo: git, branch: run.branch })).toEqual([]);
    await expect(findRunCommits({ repo: git, branch: 'autoresearch/demo/nope' })).rejects.toThrow(
      /does not exist/,
    );
  });
});

describe('commit identity', () => {
  async function authorOf(temp: TempRepo, sha: string): Promise<string> {
    return temp.git(['log', '-1', '--format=%an <%ae>|%cn <%ce>', sha]);
  }

  it('falls back to autoresearch <autoresearch@localhost> with no config anywhere', async () => {
    const { temp, git } = await setup();
    expect(git.identity).toEqual({
      name: 'autoresearch',
      email: 'autoresearch@localhost',
      source: 'fallback',
    });
    const run = await startRun(git, temp, 'run-1', 'Changed.\n');
    const sha = await keep(git, temp, run, run.head, 1, 0.5);
    for (const commit of [run.head, sha]) {
      expect(await authorOf(temp, commit)).toBe(
        'autoresearch <autoresearch@localhost>|autoresearch <autoresearch@localhost>',
      );
    }
  });

  it('uses the global config, and the repository config over it', async () => {
    const global = await setup();
    await writeFile(
      path.join(global.temp.home, '.gitconfig'),
      '[user]\n\tname = Global Gil\n\temail = gil@example.com\n',
    );
    const globalGit = await openRepo(global.temp.dir, { env: global.temp.env });
    expect(globalGit?.identity).toMatchObject({
      name: 'Global Gil',
      email: 'gil@example.com',
      source: 'config',
    });

    const { temp } = await setup({
      config: { 'user.name': 'Ada Lovelace', 'user.email': 'ada@example.com' },
    });
    await writeFile(
      path.join(temp.home, '.gitconfig'),
      '[user]\n\tname = Global Gil\n\temail = gil@example.com\n',
    );
    const reopened = await openRepo(temp.dir, { env: temp.env });
    if (reopened === null) throw new Error('expected a repository');
    const run = await startRun(reopened, temp, 'run-1');
    const sha = await keep(reopened, temp, run, run.head, 1, 0.5);
    expect(reopened.identity).toMatchObject({ name: 'Ada Lovelace', email: 'ada@example.com' });
    expect(await authorOf(temp, sha)).toBe('Ada Lovelace <ada@example.com>|Ada Lovelace <ada@example.com>');
  });

  it('ignores GIT_* variables inherited from the environment (e.g. inside a hook)', async () => {
    const { temp, git } = await setup(
      { config: { 'user.name': TEST_AUTHOR.name, 'user.email': TEST_AUTHOR.email } },
      (t) => ({
        ...t.env,
        GIT_AUTHOR_NAME: 'Intruder',
        GIT_COMMITTER_EMAIL: 'intruder@example.com',
        GIT_INDEX_FILE: path.join(t.dir, '.git', 'index'),
        GIT_DIR: path.join(t.home, 'no-such-repo'),
      }),
    );
    const indexBefore = await temp.git(['ls-files', '--stage']);
    const run = await startRun(git, temp, 'run-1', 'Changed.\n');
    const sha = await keep(git, temp, run, run.head, 1, 0.5);
    expect(await authorOf(temp, sha)).toBe(
      `${TEST_AUTHOR.name} <${TEST_AUTHOR.email}>|${TEST_AUTHOR.name} <${TEST_AUTHOR.email}>`,
    );
    expect(await temp.git(['ls-files', '--stage'])).toBe(indexBefore);
  });
});
