import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { commitKeep, createRunBranch, formatKeepMessage, openRepo } from '../../src/git/index.js';
import { createTempRepo, readTreeBytes, type TempRepo } from '../helpers/temp-repo.js';

const PROMPT = 'experiments/cold-email/prompt.md';
const RUN_ID = '20261129-2230-cold-email-k3f9';

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
  const otherRefs = (await r.git(['for-each-ref', '--format=%(refname) %(objectname)']))
    .split('\n')
    .filter((line) => !line.startsWith('refs/heads/autoresearch/'));
  const files = await readTreeBytes(r.dir);
  return { indexBytes, headFile, status, stagedEntries, head, checkedOut, otherRefs, files };
}

describe('git safety: the user checkout is never touched', () => {
  it('leaves working tree, index, HEAD and branch byte-identical and commits one change per keep', async () => {
    repo = await createTempRepo({
      files: {
        'README.md': '# project\n',
        'src/app.ts': 'export const a = 1;\n',
        [PROMPT]: 'Write a cold email to {{name}}.\n',
      },
    });
    // Unstaged edits, a staged change (with further unstaged edits on top), an untracked file,
    // and a prompt whose staged and working-tree versions both differ from HEAD.
    await repo.write('README.md', '# project\n\nwork in progress\n');
    await repo.write('src/app.ts', 'export const a = 2;\n');
    await repo.git(['add', 'src/app.ts']);
    await repo.write('src/app.ts', 'export const a = 3;\n');
    await repo.write(PROMPT, 'Staged prompt for {{name}}.\n');
    await repo.git(['add', PROMPT]);
    await repo.write(PROMPT, 'Working-tree prompt for {{name}}.\n');
    await repo.write('notes.txt', 'untracked scratch\n');

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
      promptText: 'Working-tree prompt for {{name}}.\n',
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

    const after = await snapshotCheckout(repo);
    expect(after.indexBytes.equals(before.indexBytes)).toBe(true);
    expect(after.headFile).toBe(before.headFile);
    expect(after.status).toBe(before.status);
    expect(after.stagedEntries).toBe(before.stagedEntries);
    expect(after.head).toBe(before.head);
    expect(after.checkedOut).toBe('refs/heads/main');
    expect(after.otherRefs).toEqual(before.otherRefs);
    expect([...after.files.keys()]).toEqual([...before.files.keys()]);
    for (const [file, bytes] of before.files) expect(after.files.get(file)?.equals(bytes), file).toBe(true);
    expect(await repo.git(['stash', 'list'])).toBe('');
    expect((await repo.git(['worktree', 'list', '--porcelain'])).trim()).toBe(
      `worktree ${repo.dir}\nHEAD ${before.head}\nbranch refs/heads/main`,
    );

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

    // The stored message of the last keep, byte for byte as SPEC 9 shows it.
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
});
