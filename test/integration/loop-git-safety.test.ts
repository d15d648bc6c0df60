/**
 * Git safety for a whole run (docs/design/git-layout.md): a real repository whose checkout is
 * mid-work — unstaged edits, a staged change with more edits on top, an untracked file, and the
 * prompt itself staged and then edited again. A `--provider sim` run through the built CLI must
 * leave the working tree, the index, HEAD and the checked-out branch byte-identical, and put on its
 * run branch exactly one baseline commit (the working-tree prompt) plus one commit per keep,
 * each touching only the prompt file, with docs/design/git-layout.md messages, trailers and
 * identity. Needs `npm run build` first.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readJournal } from '../../src/run/journal.js';
import { candidatePaths, runPaths } from '../../src/run/paths.js';
import { reduceRun } from '../../src/run/reducer.js';
import { cleanEnv, REPO_ROOT, requireBuiltCli, runBuiltCli, runFolders } from '../helpers/built-cli.js';
import { createTempRepo, readTreeBytes, type TempRepo } from '../helpers/temp-repo.js';

const PROMPT = 'experiments/cold-email/prompt.md';
const STAGED_PROMPT = 'Write a cold email about {{topic}} for {{audience}}. (staged draft)\n';
const WORKING_PROMPT = 'Write a short cold email about {{topic}} for {{audience}}.\n';

let repo: TempRepo | undefined;
beforeAll(requireBuiltCli);
afterEach(async () => {
  await repo?.cleanup();
  repo = undefined;
});

/** Everything of the user's checkout that a run must leave alone. */
async function snapshotCheckout(r: TempRepo) {
  // The index bytes first: the `status` below runs without optional locks, so it cannot rewrite them.
  const indexBytes = await readFile(path.join(r.dir, '.git', 'index'));
  const headFile = await readFile(path.join(r.dir, '.git', 'HEAD'), 'utf8');
  const status = await r.git(['--no-optional-locks', 'status', '--porcelain=v1', '--untracked-files=all']);
  const stagedEntries = await r.git(['ls-files', '--stage']);
  const head = await r.git(['rev-parse', 'HEAD']);
  const otherRefs = (await r.git(['for-each-ref', '--format=%(refname) %(objectname)']))
    .split('\n')
    // The run's branch and its pool refs (docs/design/pareto-search.md) are checked below; every
    // other ref must stay.
    .filter((line) => !line.startsWith('refs/heads/autoresearch/') && !line.startsWith('refs/autoresearch/'));
  const files = await readTreeBytes(r.dir);
  return { indexBytes, headFile, status, stagedEntries, head, otherRefs, files };
}

async function shippedExperimentFiles(): Promise<Record<string, string>> {
  const read = (relative: string) => readFile(path.join(REPO_ROOT, relative), 'utf8');
  return {
    'experiments/cold-email/experiment.yaml': await read('experiments/cold-email/experiment.yaml'),
    'experiments/cold-email/cases.yaml': await read('experiments/cold-email/cases.yaml'),
    [PROMPT]: await read(PROMPT),
    'rubrics/cold-email.md': await read('rubrics/cold-email.md'),
  };
}

describe('git safety for a whole run', () => {
  it('leaves the checkout byte-identical and commits the baseline and each keep to the run branch only', async () => {
    repo = await createTempRepo({
      files: {
        'README.md': '# project\n',
        'src/app.ts': 'export const a = 1;\n',
        ...(await shippedExperimentFiles()),
      },
      config: { 'user.name': 'Ada Lovelace', 'user.email': 'ada@example.com' },
    });
    await repo.write('README.md', '# project\n\nwork in progress\n');
    await repo.write('src/app.ts', 'export const a = 2;\n');
    await repo.git(['add', 'src/app.ts']);
    await repo.write('src/app.ts', 'export const a = 3;\n');
    await repo.write(PROMPT, STAGED_PROMPT);
    await repo.git(['add', PROMPT]);
    await repo.write(PROMPT, WORKING_PROMPT);
    await repo.write('notes.txt', 'untracked scratch\n');
    const before = await snapshotCheckout(repo);
    expect(before.status.split('\n').sort()).toEqual(
      [' M README.md', 'MM experiments/cold-email/prompt.md', 'MM src/app.ts', '?? notes.txt'].sort(),
    );

    const runsDir = path.join(path.dirname(repo.dir), 'runs');
    const env = cleanEnv({
      HOME: repo.env['HOME'],
      XDG_CONFIG_HOME: repo.env['XDG_CONFIG_HOME'],
      GIT_CONFIG_NOSYSTEM: '1',
    });
    const result = await runBuiltCli(
      ['run', 'experiments/cold-email', '--provider', 'sim', '--iterations', '5', '--runs-dir', runsDir],
      { cwd: repo.dir, env },
    );
    expect(result.code, result.stderr).toBe(0);

    const after = await snapshotCheckout(repo);
    expect(after.indexBytes.equals(before.indexBytes)).toBe(true);
    expect(after.headFile).toBe('ref: refs/heads/main\n');
    expect(after.headFile).toBe(before.headFile);
    expect(after.status).toBe(before.status);
    expect(after.stagedEntries).toBe(before.stagedEntries);
    expect(after.head).toBe(before.head);
    expect(after.otherRefs).toEqual(before.otherRefs);
    expect([...after.files.keys()]).toEqual([...before.files.keys()]);
    for (const [file, bytes] of before.files) expect(after.files.get(file)?.equals(bytes), file).toBe(true);
    expect(await repo.git(['stash', 'list'])).toBe('');
    expect((await repo.git(['worktree', 'list', '--porcelain'])).trim()).toBe(
      `worktree ${repo.dir}\nHEAD ${before.head}\nbranch refs/heads/main`,
    );

    const [runId] = runFolders(runsDir);
    const runDir = path.join(runsDir, String(runId));
    const state = reduceRun((await readJournal(runDir)).events);
    const git = state.start?.git;
    expect(git?.branch).toBe(`autoresearch/cold-email/${runId}`);
    expect(git?.base).toBe(before.head);
    expect(result.stderr).toContain(`branch ${git?.branch}`);
    const keeps = state.iterations.filter((it) => it.status === 'keep');
    expect(keeps.length).toBeGreaterThan(0);
    // The pareto search (the default): one pool ref per member, under the run's own prefix only.
    const poolRefs = (await repo.git(['for-each-ref', '--format=%(refname)', 'refs/autoresearch/'])).split(
      '\n',
    );
    expect(poolRefs.sort()).toEqual(
      state.pool?.members.map((m) => `refs/autoresearch/cold-email/${runId}/pool/${m.id}`).sort(),
    );
    const memberOf = (iteration: number) =>
      state.pool?.decisions.find((d) => d.iteration === iteration && d.best?.moved === true)?.member;
    expect(state.commits.map((c) => c.iteration)).toEqual(keeps.map((k) => k.iteration));

    // The baseline commit (the working-tree prompt, not the staged one), then one per keep.
    const onBranch = (await repo.git(['rev-list', '--reverse', `${git?.base}..${git?.branch}`])).split('\n');
    expect(onBranch).toEqual([git?.baselineCommit, ...state.commits.map((c) => c.sha)]);
    expect(await repo.git(['show', `${git?.baselineCommit}:${PROMPT}`])).toBe(WORKING_PROMPT.trimEnd());
    for (const sha of onBranch) {
      const changed = await repo.git(['diff-tree', '--no-commit-id', '--name-only', '-r', '-z', sha]);
      expect(changed.split('\0').filter(Boolean)).toEqual([PROMPT]);
      expect(await repo.git(['log', '-1', '--format=%an <%ae>', sha])).toBe('Ada Lovelace <ada@example.com>');
    }
    expect(
      (await repo.git(['log', '-1', '--format=%(trailers:only,unfold)', String(git?.baselineCommit)])).trim(),
    ).toBe(`Autoresearch-Run: ${runId}\nAutoresearch-Iteration: 0`);

    let incumbent = state.baseline?.train ?? 0;
    for (const [i, keep] of keeps.entries()) {
      const sha = state.commits[i]?.sha as string;
      const from = incumbent.toFixed(3);
      const to = (keep.train ?? 0).toFixed(3);
      const message = await repo.git(['log', '-1', '--format=%B', sha]);
      expect(message.split('\n')[0]).toMatch(
        new RegExp(
          `^autoresearch\\(cold-email\\): iter ${keep.iteration} ${from} -> ${to} \\(\\+\\d\\.\\d{3}\\)$`,
        ),
      );
      expect(message).toContain(keep.hypothesis?.replace(/\s+/g, ' ').trim());
      expect((await repo.git(['log', '-1', '--format=%(trailers:only,unfold)', sha])).trim()).toBe(
        `Autoresearch-Run: ${runId}\nAutoresearch-Iteration: ${keep.iteration}\nAutoresearch-Score: ${to}\nAutoresearch-Pool: ${memberOf(keep.iteration)}`,
      );
      const kept = await readFile(candidatePaths(runDir, keep.iteration, keep.candidate ?? 0).prompt, 'utf8');
      expect(await repo.git(['show', `${sha}:${PROMPT}`])).toBe(kept.trimEnd());
      incumbent = keep.train ?? 0;
    }
    const best = await readFile(runPaths(runDir).best, 'utf8');
    expect(await repo.git(['show', `${git?.branch}:${PROMPT}`])).toBe(best.trimEnd());
  });
});
