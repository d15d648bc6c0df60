import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { commitKeep, createRunBranch, formatKeepMessage, openRepo } from '../../src/git/index.js';
import { syncPoolRefs } from '../../src/git/pool-refs.js';
import { type PoolRunMember, writePoolRun } from '../helpers/pool-run.js';
import { createTempRepo, readTreeBytes, type TempRepo } from '../helpers/temp-repo.js';

const PROMPT = 'experiments/cold-email/prompt.md';
const RUN_ID = '20261129-2230-cold-email-k3f9';
const WORKING_PROMPT = 'Working-tree prompt for {{name}}.\n';

let repo: TempRepo | undefined;
afterEach(async () => {
  await repo?.cleanup();
  repo = undefined;
});

/** Everything of the user's checkout that a run must leave alone. */
async function snapshotCheckout(r: TempRepo) {
  // The index bytes are read first: `git status` below may not rewrite them (no optional locks).
  const indexBytes = await readFile(path.join(r.dir, '.git', 'index'));
  const headFile = await readFile(path.join(r.dir, '.git', 'HEAD'), 'utf8');
  const status = await r.git(['--no-optional-locks', 'status', '--porcelain=v1', '--untracked-files=all']);
  const stagedEntries = await r.git(['ls-files', '--stage']);
  const head = await r.git(['rev-parse', 'HEAD']);
  const checkedOut = await r.git(['symbolic-ref', 'HEAD']);
  // The run's own refs: its branch and (a pareto run, docs/design/pareto-search.md) its pool refs.
  const otherRefs = (await r.git(['for-each-ref', '--format=%(refname) %(objectname)']))
    .split('\n')
    .filter((line) => !line.startsWith('refs/heads/autoresearch/') && !line.startsWith('refs/autoresearch/'));
  const files = await readTreeBytes(r.dir);
  return { indexBytes, headFile, status, stagedEntries, head, checkedOut, otherRefs, files };
}

/**
 * A checkout mid-work: unstaged edits, a staged change with further unstaged edits on top, an
 * untracked file, and a prompt whose staged and working-tree versions both differ from HEAD.
 */
async function createDirtyCheckout(): Promise<TempRepo> {
  const r = await createTempRepo({
    files: {
      'README.md': '# project\n',
      'src/app.ts': 'export const a = 1;\n',
      [PROMPT]: 'Write a cold email to {{name}}.\n',
    },
  });
  await r.write('README.md', '# project\n\nwork in progress\n');
  await r.write('src/app.ts', 'export const a = 2;\n');
  await r.git(['add', 'src/app.ts']);
  await r.write('src/app.ts', 'export const a = 3;\n');
  await r.write(PROMPT, 'Staged prompt for {{name}}.\n');
  await r.git(['add', PROMPT]);
  await r.write(PROMPT, WORKING_PROMPT);
  await r.write('notes.txt', 'untracked scratch\n');
  return r;
}

type Checkout = Awaited<ReturnType<typeof snapshotCheckout>>;

async function expectUntouched(r: TempRepo, before: Checkout): Promise<void> {
  const after = await snapshotCheckout(r);
  expect(after.indexBytes.equals(before.indexBytes)).toBe(true);
  expect(after.headFile).toBe(before.headFile);
  expect(after.status).toBe(before.status);
  expect(after.stagedEntries).toBe(before.stagedEntries);
  expect(after.head).toBe(before.head);
  expect(after.checkedOut).toBe('refs/heads/main');
  expect(after.otherRefs).toEqual(before.otherRefs);
  expect([...after.files.keys()]).toEqual([...before.files.keys()]);
  for (const [file, bytes] of before.files) expect(after.files.get(file)?.equals(bytes), file).toBe(true);
  expect(await r.git(['stash', 'list'])).toBe('');
  expect((await r.git(['worktree', 'list', '--porcelain'])).trim()).toBe(
    `worktree ${r.dir}\nHEAD ${before.head}\nbranch refs/heads/main`,
  );
}

describe('git safety: the user checkout is never touched', () => {
  it('leaves working tree, index, HEAD and branch byte-identical and commits one change per keep', async () => {
    repo = await createDirtyCheckout();
    const before = await snapshotCheckout(repo);
    expect(before.status).toContain('?? notes.txt');
    expect(before.status).toContain('MM src/app.ts');

    const git = await openRepo(repo.dir, { env: repo.env });
    expect(git).not.toBeNull();
    if (git === null) return;
    const promptPath = repo.path(PROMPT);
    const start = await createRunBranch({
      repo: git,
      experiment: 'cold-email',
      runId: RUN_ID,
      promptPath,
      promptText: WORKING_PROMPT,
    });
    expect(start.branch).toBe(`autoresearch/cold-email/${RUN_ID}`);
    expect(start.base).toBe(before.head);
    expect(start.baselineCommit).toBe(start.head);

    const keeps = [
      { iteration: 2, from: 0.5, to: 0.61, text: 'Keep one for {{name}}.\n', hypothesis: 'Shorter openers.' },
      { iteration: 5, from: 0.61, to: 0.7, text: 'Keep two for {{name}}.\n', hypothesis: 'Name the pain.' },
      {
        iteration: 7,
        from: 0.712,
        to: 0.768,
        text: 'Keep three for {{name}}.\n',
        hypothesis: 'One ask.\n\nOnly one.',
      },
    ];
    let head = start.head;
    const shas: string[] = [];
    for (const keep of keeps) {
      const message = formatKeepMessage({ experiment: 'cold-email', runId: RUN_ID, ...keep });
      head = await commitKeep({
        repo: git,
        branch: start.branch,
        expectedHead: head,
        promptPath,
        promptText: keep.text,
        message,
      });
      shas.push(head);
    }

    await expectUntouched(repo, before);

    // Baseline commit, then exactly one commit per keep, each touching only the prompt.
    const onBranch = (await repo.git(['rev-list', '--reverse', `${start.base}..${start.branch}`])).split(
      '\n',
    );
    expect(onBranch).toEqual([start.head, ...shas]);
    for (const sha of onBranch) {
      const changed = await repo.git(['diff-tree', '--no-commit-id', '--name-only', '-r', '-z', sha]);
      expect(changed.split('\0').filter(Boolean)).toEqual([PROMPT]);
    }
    for (const [i, keep] of keeps.entries()) {
      expect(await repo.git(['show', `${shas[i]}:${PROMPT}`])).toBe(keep.text.trimEnd());
    }

    // The stored message of the last keep, byte for byte as docs/design/git-layout.md shows it.
    const rawCommit = await repo.git(['cat-file', 'commit', start.branch]);
    expect(rawCommit.slice(rawCommit.indexOf('\n\n') + 2)).toBe(
      [
        'autoresearch(cold-email): iter 7 0.712 -> 0.768 (+0.056)',
        '',
        'One ask. Only one.',
        '',
        `Autoresearch-Run: ${RUN_ID}`,
        'Autoresearch-Iteration: 7',
        'Autoresearch-Score: 0.768',
      ].join('\n'),
    );
    const trailers = await repo.git([
      'log',
      '--format=%(trailers:only,unfold)%x00',
      `${start.base}..${start.branch}`,
    ]);
    expect(trailers.split('\0').map((t) => t.trim())).toEqual([
      `Autoresearch-Run: ${RUN_ID}\nAutoresearch-Iteration: 7\nAutoresearch-Score: 0.768`,
      `Autoresearch-Run: ${RUN_ID}\nAutoresearch-Iteration: 5\nAutoresearch-Score: 0.700`,
      `Autoresearch-Run: ${RUN_ID}\nAutoresearch-Iteration: 2\nAutoresearch-Score: 0.610`,
      `Autoresearch-Run: ${RUN_ID}\nAutoresearch-Iteration: 0`,
      '',
    ]);
  });

  it('leaves it byte-identical while a pareto run makes its pool refs and a keep with its member', async () => {
    repo = await createDirtyCheckout();
    const before = await snapshotCheckout(repo);
    // The run folder lives outside the work tree, as a runs/ ignored by the user would.
    const members: PoolRunMember[] = [
      { id: 'p0', iteration: 0, candidate: 0, kind: 'seed', parents: [], text: WORKING_PROMPT },
      {
        id: 'p1',
        iteration: 1,
        candidate: 0,
        kind: 'mutation',
        parents: ['p0'],
        text: 'One for {{name}}.\n',
      },
      {
        id: 'p2',
        iteration: 1,
        candidate: 1,
        kind: 'mutation',
        parents: ['p0'],
        text: 'Two for {{name}}.\n',
      },
      {
        id: 'p3',
        iteration: 2,
        candidate: 0,
        kind: 'merge',
        parents: ['p1', 'p2'],
        text: 'Both for {{name}}.\n',
      },
    ];
    const run = await writePoolRun({ repo, runsDir: path.join(repo.home, 'runs'), runId: RUN_ID, members });
    const head = await commitKeep({
      repo: run.git,
      branch: run.branch.branch,
      expectedHead: run.branch.head,
      promptPath: repo.path(PROMPT),
      promptText: 'Both for {{name}}.\n',
      message: formatKeepMessage({
        experiment: 'cold-email',
        runId: RUN_ID,
        iteration: 2,
        from: 0.5,
        to: 0.6,
        hypothesis: 'Merge.',
        member: 'p3',
      }),
    });
    expect(await syncPoolRefs(run.deps, run.recorder.state())).toEqual(['p0', 'p1', 'p2', 'p3']);
    expect(await syncPoolRefs(run.deps, run.recorder.state())).toEqual([]);

    await expectUntouched(repo, before);
    // The run branch: the baseline commit, then the keep — linear, the pool beside it.
    expect(
      (await repo.git(['rev-list', '--reverse', `${run.branch.base}..${run.branch.branch}`])).split('\n'),
    ).toEqual([run.branch.head, head]);
    const poolRefs = (await repo.git(['for-each-ref', '--format=%(refname)', 'refs/autoresearch/'])).split(
      '\n',
    );
    expect(poolRefs).toEqual(
      ['p0', 'p1', 'p2', 'p3'].map((m) => `refs/autoresearch/cold-email/${RUN_ID}/pool/${m}`),
    );
    // Each pool commit changes only the prompt against the run start.
    for (const ref of poolRefs)
      expect(await repo.git(['diff', '--name-only', run.branch.head, ref])).toBe(
        ref.endsWith('/p0') ? '' : PROMPT,
      );
  });
});
