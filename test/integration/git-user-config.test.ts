/**
 * The user's own git config and hooks behave as they did before simple-git: commits are
 * never signed even with commit.gpgsign on, and hooks from core.hooksPath run with a
 * plain git environment (simple-git's guards cover only what we pass, not the user's config).
 */
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { commitKeep, createRunBranch, formatKeepMessage, openRepo } from '../../src/git/index.js';
import { createTempRepo, type TempRepo } from '../helpers/temp-repo.js';

const PROMPT = 'experiments/demo/prompt.md';

const repos: TempRepo[] = [];
afterEach(async () => {
  await Promise.all(repos.splice(0).map((r) => r.cleanup()));
});

async function startAndKeep(temp: TempRepo): Promise<{ branch: string; sha: string }> {
  const repo = await openRepo(temp.dir, { env: temp.env });
  if (repo === null) throw new Error('expected a repository');
  const promptPath = temp.path(PROMPT);
  const run = await createRunBranch({
    repo,
    experiment: 'demo',
    runId: 'run-1',
    promptPath,
    promptText: 'v0\n',
  });
  const message = formatKeepMessage({
    experiment: 'demo',
    runId: 'run-1',
    iteration: 1,
    from: 0.1,
    to: 0.2,
    hypothesis: 'h',
  });
  const sha = await commitKeep({
    repo,
    branch: run.branch,
    expectedHead: run.head,
    promptPath,
    promptText: 'v1\n',
    message,
  });
  return { branch: run.branch, sha };
}

describe('the user’s git config under simple-git', () => {
  it('never signs, even with commit.gpgsign on and a signing program that fails', async () => {
    const temp = await createTempRepo({ files: { [PROMPT]: 'v0\n' } });
    repos.push(temp);
    const failingGpg = path.join(temp.home, 'gpg-fails.sh');
    await writeFile(failingGpg, '#!/bin/sh\nexit 1\n');
    await chmod(failingGpg, 0o755);
    await temp.git(['config', 'commit.gpgsign', 'true']);
    await temp.git(['config', 'gpg.program', failingGpg]);
    const { sha } = await startAndKeep(temp);
    expect(await temp.git(['cat-file', 'commit', sha])).not.toMatch(/^gpgsig /m);
  });

  it('runs the reference-transaction hook from core.hooksPath, which may use git as usual', async () => {
    const temp = await createTempRepo({ files: { [PROMPT]: 'v0\n' } });
    repos.push(temp);
    const hooks = path.join(temp.home, 'hooks');
    const log = path.join(temp.home, 'hook.log');
    await mkdir(hooks);
    // An abbreviated option (`--show-cur` for `--show-current`) is what a hand-written hook may hold.
    await writeFile(
      path.join(hooks, 'reference-transaction'),
      `#!/bin/sh\n[ "$1" = committed ] || exit 0\ngit branch --show-cur >/dev/null || exit 1\ncat >> "${log}"\n`,
    );
    await chmod(path.join(hooks, 'reference-transaction'), 0o755);
    await temp.git(['config', 'core.hooksPath', hooks]);
    const { branch, sha } = await startAndKeep(temp);
    expect(await readFile(log, 'utf8')).toContain(`${sha} refs/heads/${branch}`);
  });
});
