/**
 * Real temporary git repositories built from a file tree, for tests.
 *
 *   const repo = await createTempRepo({ files: { 'README.md': 'hi\n', 'experiments/x/prompt.md': '…' } });
 *   await repo.git(['status']);          // git in repo.dir with the isolated environment
 *   await repo.write('README.md', 'edited\n');
 *   await repo.cleanup();
 *
 * Isolation: HOME and XDG_CONFIG_HOME point at an empty folder beside the repository and
 * GIT_CONFIG_NOSYSTEM=1, so no machine or user git config leaks in; pass `repo.env` to the
 * code under test. The first commit (of every file given) is made with a one-off `-c`
 * identity, so no user.name/user.email is left configured unless `config` sets it.
 * Options: `init: false` gives a plain folder (no repository); `commit: false` leaves HEAD unborn.
 */
import { mkdir, mkdtemp, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';

export interface TempRepoOptions {
  files?: Record<string, string>;
  init?: boolean;
  commit?: boolean;
  /** Repository-level git config written after `git init`, e.g. `{ 'user.name': 'Ada' }`. */
  config?: Record<string, string>;
}

export interface TempRepo {
  /** The work tree (symlink-free). */
  dir: string;
  /** The empty HOME the repository's git runs with. */
  home: string;
  env: NodeJS.ProcessEnv;
  git(args: readonly string[], options?: { input?: string }): Promise<string>;
  write(relativePath: string, content: string): Promise<void>;
  read(relativePath: string): Promise<string>;
  path(relativePath: string): string;
  cleanup(): Promise<void>;
}

export const TEST_AUTHOR = { name: 'Test Author', email: 'test@example.com' } as const;

export function isolatedGitEnv(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.toUpperCase().startsWith('GIT_')) env[key] = value;
  }
  return { ...env, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), GIT_CONFIG_NOSYSTEM: '1' };
}

export async function writeFiles(dir: string, files: Record<string, string>): Promise<void> {
  for (const [relativePath, content] of Object.entries(files)) {
    const file = path.join(dir, relativePath);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, content);
  }
}

/** Every file under `dir` except `.git`, as relative path → bytes. */
export async function readTreeBytes(dir: string): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    const relative = path.relative(dir, full).split(path.sep).join('/');
    if (relative === '.git' || relative.startsWith('.git/')) continue;
    out.set(relative, await readFile(full));
  }
  return new Map([...out.entries()].sort(([a], [b]) => a.localeCompare(b)));
}

export async function createTempRepo(options: TempRepoOptions = {}): Promise<TempRepo> {
  const scratch = await realpath(await mkdtemp(path.join(os.tmpdir(), 'autoresearch-repo-')));
  const home = path.join(scratch, 'home');
  const dir = path.join(scratch, 'repo');
  await mkdir(home);
  await mkdir(dir);
  const env = isolatedGitEnv(home);
  const git = async (args: readonly string[], runOptions: { input?: string } = {}) =>
    (await execa('git', args, { cwd: dir, env, extendEnv: false, input: runOptions.input ?? '' })).stdout;

  await writeFiles(dir, options.files ?? {});
  if (options.init !== false) {
    await git(['init', '--quiet', '--initial-branch=main']);
    for (const [key, value] of Object.entries(options.config ?? {})) await git(['config', key, value]);
    if (options.commit !== false) {
      await git(['add', '--all']);
      await git([
        '-c',
        `user.name=${TEST_AUTHOR.name}`,
        '-c',
        `user.email=${TEST_AUTHOR.email}`,
        'commit',
        '--quiet',
        '--allow-empty',
        '--no-gpg-sign',
        '-m',
        'initial commit',
      ]);
    }
  }

  return {
    dir,
    home,
    env,
    git,
    write: (relativePath, content) => writeFiles(dir, { [relativePath]: content }),
    read: (relativePath) => readFile(path.join(dir, relativePath), 'utf8'),
    path: (relativePath) => path.join(dir, relativePath),
    cleanup: () => rm(scratch, { recursive: true, force: true }),
  };
}
