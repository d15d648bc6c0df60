import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  BranchMovedError,
  commitKeep,
  createRunBranch,
  formatKeepMessage,
  type GitRepo,
  openRepo,
  UnbornHeadError,
} from '../../src/git/index.js';
import { readFileAt } from '../helpers/read-at.js';
import { createTempRepo, type TempRepo } from '../helpers/temp-repo.js';

const PROMPT = 'experiments/demo/prompt.md';

const repos: TempRepo[] = [];
afterEach(async () => {
  await Promise.all(repos.splice(0).map((r) => r.cleanup()));
});

async function setup(
  options: Parameters<typeof createTempRepo>[0] = {},
): Promise<{ temp: TempRepo; git: GitRepo }> {
  const temp = await createTempRepo({ files: { [PROMPT]: 'Hello {{name}}.\n' }, ...options });
  repos.push(temp);
  const git = await openRepo(temp.dir, { env: temp.env });
  if (git === null) throw new Error('expected a repository');
  return { temp, git };
}

function start(git: GitRepo, temp: TempRepo, promptText: string, runId = 'run-1', promptFile = PROMPT) {
  return createRunBranch({
    repo: git,
    experiment: 'demo',
    runId,
    promptPath: temp.path(promptFile),
    promptText,
  });
}

describe('openRepo', () => {
  it('returns null outside a git repository', async () => {
    const temp = await createTempRepo({ init: false, files: { 'prompt.md': 'x' } });
    repos.push(temp);
    expect(await openRepo(temp.dir, { env: temp.env })).toBeNull();
  });

  it('returns null when git cannot be started at all', async () => {
    const { temp } = await setup();
    expect(await openRepo(temp.dir, { env: { ...temp.env, PATH: temp.home } })).toBeNull();
  });

  it('finds the root from a subfolder and gives root-relative paths', async () => {
    const { temp } = await setup();
    const git = await openRepo(temp.path('experiments/demo'), { env: temp.env });
    expect(git?.root).toBe(temp.dir);
    expect(git?.relativePath(temp.path(PROMPT))).toBe(PROMPT);
    expect(() => git?.relativePath(path.join(temp.home, 'elsewhere.md'))).toThrow(
      /not inside the git repository/,
    );
  });
});

describe('createRunBranch', () => {
  it('adds no baseline commit when the working-tree prompt equals HEAD', async () => {
    const { temp, git } = await setup();
    const head = await temp.git(['rev-parse', 'HEAD']);
    const run = await start(git, temp, 'Hello {{name}}.\n');
    expect(run).toEqual({ branch: 'autoresearch/demo/run-1', base: head, baseBranch: 'main', head });
    expect(await temp.git(['rev-parse', 'refs/heads/autoresearch/demo/run-1'])).toBe(head);
  });

  it('starts with a baseline commit when the prompt differs from HEAD', async () => {
    const { temp, git } = await setup();
    await temp.write(PROMPT, 'Hello {{name}}, edited.\n');
    const run = await start(git, temp, 'Hello {{name}}, edited.\n');
    expect(run.baselineCommit).toBeDefined();
    expect(run.head).toBe(run.baselineCommit);
    expect(await temp.git(['rev-parse', `${run.head}^`])).toBe(run.base);
    expect(await readFileAt({ repo: git, sha: run.head, path: PROMPT })).toBe('Hello {{name}}, edited.\n');
    expect(await temp.git(['log', '-1', '--format=%s%n%(trailers:only,unfold)', run.head])).toBe(
      'autoresearch(demo): baseline prompt for run run-1\nAutoresearch-Run: run-1\nAutoresearch-Iteration: 0\n',
    );
  });

  it('starts with a baseline commit when the prompt is untracked, keeping other files as in HEAD', async () => {
    const { temp, git } = await setup({ files: { 'README.md': 'readme\n' } });
    await temp.write(PROMPT, 'Brand new prompt.\n');
    await temp.write('scratch.txt', 'not for the run\n');
    const run = await start(git, temp, 'Brand new prompt.\n');
    const tree = await temp.git(['ls-tree', '-r', '--name-only', run.head]);
    expect(tree.split('\n')).toEqual(['README.md', PROMPT]);
    expect(await readFileAt({ repo: git, sha: run.head, path: git.relativePath(temp.path(PROMPT)) })).toBe(
      'Brand new prompt.\n',
    );
    expect(
      await readFileAt({ repo: git, sha: run.base, path: git.relativePath(temp.path(PROMPT)) }),
    ).toBeNull();
  });

  it('branches from a detached HEAD and leaves it detached', async () => {
    const { temp, git } = await setup();
    const head = await temp.git(['rev-parse', 'HEAD']);
    await temp.git(['checkout', '--quiet', '--detach']);
    const run = await start(git, temp, 'Hello {{name}}.\n');
    expect(run.base).toBe(head);
    expect(run.baseBranch).toBeNull();
    expect(await temp.git(['rev-parse', '--abbrev-ref', 'HEAD'])).toBe('HEAD');
  });

  it('refuses an unborn HEAD with a clear error and creates no branch', async () => {
    const { temp, git } = await setup({ commit: false });
    const error = await start(git, temp, 'Hello {{name}}.\n').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnbornHeadError);
    expect((error as UnbornHeadError).code).toBe('E_GIT');
    expect((error as UnbornHeadError).hint).toMatch(/first commit/);
    expect(await temp.git(['for-each-ref'])).toBe('');
  });

  it('refuses to reuse an existing run branch', async () => {
    const { temp, git } = await setup();
    const first = await start(git, temp, 'Hello {{name}}.\n');
    const error = await start(git, temp, 'Other.\n').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BranchMovedError);
    expect((error as BranchMovedError).expected).toBeNull();
    expect((error as BranchMovedError).actual).toBe(first.head);
  });

  it('handles a prompt path with spaces, unicode and glob characters', async () => {
    const file = 'experiments/café ünï/my prompt [v1].md';
    const { temp, git } = await setup({
      files: { [file]: 'Bonjour.\n', 'experiments/café ünï/my prompt 1.md': 'x\n' },
    });
    const run = await start(git, temp, 'Bonjour, édité.\n', 'run-1', file);
    const message = formatKeepMessage({
      experiment: 'demo',
      runId: 'run-1',
      iteration: 1,
      from: 0.1,
      to: 0.2,
      hypothesis: 'Accents.',
    });
    const sha = await commitKeep({
      repo: git,
      branch: run.branch,
      expectedHead: run.head,
      promptPath: temp.path(file),
      promptText: 'Salut.\n',
      message,
    });
    for (const commit of [run.head, sha]) {
      const changed = await temp.git(['diff-tree', '--no-commit-id', '--name-only', '-r', '-z', commit]);
      expect(changed.split('\0').filter(Boolean)).toEqual([file]);
    }
    expect(await readFileAt({ repo: git, sha, path: file })).toBe('Salut.\n');
    expect(await readFileAt({ repo: git, sha, path: 'experiments/café ünï/my prompt 1.md' })).toBe('x\n');
  });

  it('rejects a branch name git would not accept', async () => {
    const { temp, git } = await setup();
    await expect(start(git, temp, 'Hello {{name}}.\n', 'bad..id')).rejects.toThrow(
      /not a valid git branch name/,
    );
  });

  it('reads the prompt relative to the repository even from a nested new folder', async () => {
    const { temp, git } = await setup();
    await mkdir(temp.path('experiments/new'), { recursive: true });
    await temp.write('experiments/new/prompt.md', 'New.\n');
    const run = await start(git, temp, 'New.\n', 'run-2', 'experiments/new/prompt.md');
    expect(await readFileAt({ repo: git, sha: run.head, path: 'experiments/new/prompt.md' })).toBe('New.\n');
  });
});
