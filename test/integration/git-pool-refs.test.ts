/**
 * Pool refs (docs/design/pareto-search.md): every member of a pareto run gets a commit under
 * refs/autoresearch/<experiment>/<run-id>/pool/p<n> with the real lineage — a mutation's parent
 * is its parent member's commit, a merge has two, p0's is the commit the run branch started at —
 * made idempotently from the journal alone, and never on the user's branch, HEAD or index.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { joinPartTexts } from '../../src/experiment/part-texts.js';
import { commitKeep, findRunCommits, formatKeepMessage } from '../../src/git/index.js';
import { listPoolRefs, poolRef, syncPoolRefs } from '../../src/git/pool-refs.js';
import { iterationFinished } from '../../src/loop/finish-iteration.js';
import { reconcileLastKeep } from '../../src/loop/record-keep.js';
import { candidatePaths } from '../../src/run/paths.js';
import { journalMembers, type PoolRunMember, writePoolRun } from '../helpers/pool-run.js';
import { createTempRepo, type TempRepo } from '../helpers/temp-repo.js';

const PROMPT = 'experiments/cold-email/prompt.md';

const MEMBERS: PoolRunMember[] = [
  { id: 'p0', iteration: 0, candidate: 0, kind: 'seed', parents: [], text: 'Write to {{name}}.\n' },
  {
    id: 'p1',
    iteration: 1,
    candidate: 0,
    kind: 'mutation',
    parents: ['p0'],
    text: 'Write briefly to {{name}}.\n',
    hypothesis: 'Shorter emails\nget answers.',
    train: 0.61,
  },
  {
    id: 'p2',
    iteration: 1,
    candidate: 1,
    kind: 'mutation',
    parents: ['p0'],
    text: 'Write to {{name}}. Name their pain.\n',
    hypothesis: 'Name the pain.',
  },
  {
    id: 'p3',
    iteration: 2,
    candidate: 0,
    kind: 'merge',
    parents: ['p1', 'p2'],
    text: 'Write briefly to {{name}}. Name their pain.\n',
    hypothesis: 'Merge of the short and the pain lineages.',
  },
];

let repo: TempRepo | undefined;
afterEach(async () => {
  await repo?.cleanup();
  repo = undefined;
});

async function makeRepo(files: Record<string, string> = { [PROMPT]: 'Write to {{name}}.\n' }) {
  repo = await createTempRepo({ files: { 'README.md': '# project\n', ...files } });
  return repo;
}

const parentsOf = async (r: TempRepo, rev: string) =>
  (await r.git(['rev-list', '--parents', '-n', '1', rev])).split(' ').slice(1);

describe('syncPoolRefs', () => {
  it('makes one commit per member with the real lineage: p0 on the run start, a merge with two parents', async () => {
    const r = await makeRepo();
    const run = await writePoolRun({ repo: r, runsDir: r.path('runs'), members: MEMBERS });
    const created = await syncPoolRefs(run.deps, run.recorder.state());
    expect(created).toEqual(['p0', 'p1', 'p2', 'p3']);

    const ref = (member: string) => poolRef('cold-email', run.id, member);
    const sha = async (member: string) => (await r.git(['rev-parse', ref(member)])).trim();
    // p0's parent: the commit the run branch started at (no baseline commit: HEAD held the prompt).
    expect(run.branch.baselineCommit).toBeUndefined();
    expect(await parentsOf(r, ref('p0'))).toEqual([run.branch.base]);
    expect(await parentsOf(r, ref('p1'))).toEqual([await sha('p0')]);
    expect(await parentsOf(r, ref('p2'))).toEqual([await sha('p0')]);
    expect(await parentsOf(r, ref('p3'))).toEqual([await sha('p1'), await sha('p2')]);
    for (const member of MEMBERS)
      expect(await r.git(['show', `${ref(member.id)}:${PROMPT}`])).toBe(member.text.trimEnd());
    // Each tree is the run's start tree with the prompt written: nothing else differs.
    expect(await r.git(['diff', '--name-only', run.branch.base, ref('p3')])).toBe(PROMPT);
    expect(await r.git(['show', `${ref('p3')}:README.md`])).toBe('# project');

    const message = await r.git(['log', '-1', '--format=%B', ref('p3')]);
    expect(message.trim()).toBe(
      [
        'autoresearch(cold-email): pool p3, iter 2, merge of p1 and p2 0.500',
        '',
        'Merge of the short and the pain lineages.',
        '',
        `Autoresearch-Run: ${run.id}`,
        'Autoresearch-Iteration: 2',
        'Autoresearch-Score: 0.500',
        'Autoresearch-Pool: p3',
      ].join('\n'),
    );
    expect((await r.git(['log', '-1', '--format=%s%n%b', ref('p1')])).split('\n').slice(0, 3)).toEqual([
      'autoresearch(cold-email): pool p1, iter 1, from p0 0.610',
      'Shorter emails get answers.',
      '',
    ]);
    // The run branch is not moved by pool refs.
    expect(await r.git(['rev-parse', `refs/heads/${run.branch.branch}`])).toBe(run.branch.head);
  });

  it('is idempotent: a second sync creates nothing, later members join the existing lineage', async () => {
    const r = await makeRepo();
    const run = await writePoolRun({ repo: r, runsDir: r.path('runs'), members: MEMBERS.slice(0, 2) });
    expect(await syncPoolRefs(run.deps, run.recorder.state())).toEqual(['p0', 'p1']);
    const before = await r.git(['for-each-ref', '--format=%(refname) %(objectname)']);
    expect(await syncPoolRefs(run.deps, run.recorder.state())).toEqual([]);
    expect(await r.git(['for-each-ref', '--format=%(refname) %(objectname)'])).toBe(before);

    // The next iteration's members (journaled the way the loop does) join on the next sync.
    await journalMembers(run.recorder, run.dir, MEMBERS.slice(2));
    expect(await syncPoolRefs(run.deps, run.recorder.state())).toEqual(['p2', 'p3']);
    const refs = await listPoolRefs(run.git, 'cold-email', run.id);
    expect(refs.map((ref) => ref.member)).toEqual(['p0', 'p1', 'p2', 'p3']);
    expect(refs[3]?.parents).toEqual([refs[1]?.sha, refs[2]?.sha]);
  });

  it('does nothing without git or without a pool', async () => {
    const r = await makeRepo();
    const run = await writePoolRun({ repo: r, runsDir: r.path('runs'), members: MEMBERS });
    expect(await syncPoolRefs({ ...run.deps, git: null }, run.recorder.state())).toEqual([]);
    expect(await syncPoolRefs(run.deps, { ...run.recorder.state(), pool: null })).toEqual([]);
    expect(await listPoolRefs(run.git, 'cold-email', run.id)).toEqual([]);
  });

  it('refuses a ref that points elsewhere, naming it, and leaves it alone', async () => {
    const r = await makeRepo();
    const run = await writePoolRun({ repo: r, runsDir: r.path('runs'), members: MEMBERS });
    const ref = poolRef('cold-email', run.id, 'p1');
    await r.git(['update-ref', ref, run.branch.base]);
    await expect(syncPoolRefs(run.deps, run.recorder.state())).rejects.toThrow(
      new RegExp(
        `pool ref ${ref} points elsewhere: commit ${run.branch.base} is not run ${run.id}'s commit for p1`,
      ),
    );
    expect((await r.git(['rev-parse', ref])).trim()).toBe(run.branch.base);
  });

  it('refuses a prompt.md that is not the journaled member', async () => {
    const r = await makeRepo();
    const run = await writePoolRun({ repo: r, runsDir: r.path('runs'), members: MEMBERS });
    await r.write(path.relative(r.dir, candidatePaths(run.dir, 1, 1).prompt), 'edited by hand\n');
    await expect(syncPoolRefs(run.deps, run.recorder.state())).rejects.toThrow(
      /is not the prompt pool member p2 was journaled with/,
    );
    // The members before it got their refs; a sync after the repair goes on from there.
    expect((await listPoolRefs(run.git, 'cold-email', run.id)).map((ref) => ref.member)).toEqual([
      'p0',
      'p1',
    ]);
  });

  it('starts p0 on the baseline commit when the working-tree prompt differed from HEAD', async () => {
    const r = await makeRepo();
    await r.write(PROMPT, 'Write warmly to {{name}}.\n');
    const members = [{ ...(MEMBERS[0] as PoolRunMember), text: 'Write warmly to {{name}}.\n' }];
    const run = await writePoolRun({ repo: r, runsDir: r.path('runs'), members });
    await syncPoolRefs(run.deps, run.recorder.state());
    expect(run.branch.baselineCommit).toBeDefined();
    expect(await parentsOf(r, poolRef('cold-email', run.id, 'p0'))).toEqual([run.branch.baselineCommit]);
  });

  it('writes each part’s file for a prompt of several parts', async () => {
    const files = {
      'app/system.md': 'You are a sales writer.\n',
      'app/user.md': 'Write to {{name}}.\n',
    };
    const r = await makeRepo(files);
    const parts = { system: 'app/system.md', 'messages[0]': 'app/user.md' };
    const doc = (system: string, user: string) => joinPartTexts({ system, 'messages[0]': user });
    const members: PoolRunMember[] = [
      { ...(MEMBERS[0] as PoolRunMember), text: doc(files['app/system.md'], files['app/user.md']) },
      {
        ...(MEMBERS[1] as PoolRunMember),
        text: doc('You are a terse sales writer.\n', files['app/user.md']),
      },
      { ...(MEMBERS[2] as PoolRunMember), text: doc(files['app/system.md'], 'Write to {{name}} about X.\n') },
      {
        ...(MEMBERS[3] as PoolRunMember),
        text: doc('You are a terse sales writer.\n', 'Write to {{name}} about X.\n'),
      },
    ];
    const run = await writePoolRun({ repo: r, runsDir: r.path('runs'), parts, members });
    await syncPoolRefs(run.deps, run.recorder.state());
    const p3 = poolRef('cold-email', run.id, 'p3');
    expect(await r.git(['show', `${p3}:app/system.md`])).toBe('You are a terse sales writer.');
    expect(await r.git(['show', `${p3}:app/user.md`])).toBe('Write to {{name}} about X.');
    const p1 = poolRef('cold-email', run.id, 'p1');
    expect(await r.git(['diff', '--name-only', `${p1}^`, p1])).toBe('app/system.md');
  });
});

describe('the keep commit of a pareto run', () => {
  it('carries Autoresearch-Pool, and resume still finds it by its trailers', async () => {
    const r = await makeRepo();
    const run = await writePoolRun({ repo: r, runsDir: r.path('runs'), members: MEMBERS });
    const message = formatKeepMessage({
      experiment: 'cold-email',
      runId: run.id,
      iteration: 2,
      from: 0.5,
      to: 0.61,
      hypothesis: 'Merge.',
      member: 'p3',
    });
    expect(message.split('\n').slice(-5)).toEqual([
      `Autoresearch-Run: ${run.id}`,
      'Autoresearch-Iteration: 2',
      'Autoresearch-Score: 0.610',
      'Autoresearch-Pool: p3',
      '',
    ]);
    const sha = await commitKeep({
      repo: run.git,
      branch: run.branch.branch,
      expectedHead: run.branch.head,
      promptPath: r.path(PROMPT),
      promptText: (MEMBERS[3] as PoolRunMember).text,
      message,
    });
    await syncPoolRefs(run.deps, run.recorder.state());
    // The pool commits are off the run branch's first-parent line: only the keep is found.
    expect(await findRunCommits({ repo: run.git, branch: run.branch.branch, runId: run.id })).toEqual([
      { sha, iteration: 2, score: 0.61, pool: 'p3' },
    ]);
    // Same tree as the pool commit of p3, different parent (the branch stays linear).
    const p3 = poolRef('cold-email', run.id, 'p3');
    expect(await r.git(['rev-parse', `${sha}^{tree}`])).toBe(await r.git(['rev-parse', `${p3}^{tree}`]));
    expect(await parentsOf(r, sha)).toEqual([run.branch.head]);
    expect(await readFile(r.path(PROMPT), 'utf8')).toBe('Write to {{name}}.\n');
  });

  it('is what resume commits for a keep journaled without its commit (reconcileLastKeep)', async () => {
    const r = await makeRepo();
    const run = await writePoolRun({ repo: r, runsDir: r.path('runs'), members: MEMBERS });
    const p3 = MEMBERS[3] as PoolRunMember;
    const finished = (iteration: number, status: 'baseline' | 'keep', candidate: number, train: number) =>
      iterationFinished({ iteration, status, candidate, train, spend: [], seconds: 1, hypothesis: 'Merge.' });
    await run.recorder.emit(
      { type: 'iteration_started', iteration: 0 },
      finished(0, 'baseline', 0, 0.5),
      { type: 'iteration_started', iteration: 2, mode: 'focused' },
      finished(2, 'keep', 0, 0.61),
    );
    expect(run.recorder.state().pool?.best).toBe('p3');
    const deps = {
      ...run.deps,
      recorder: run.recorder,
      git: { ...run.deps.git!, branch: run.branch.branch },
    };
    expect(await reconcileLastKeep(deps, p3.text)).toBe('committed');
    const commits = await findRunCommits({ repo: run.git, branch: run.branch.branch, runId: run.id });
    expect(commits.map((c) => [c.iteration, c.pool])).toEqual([[2, 'p3']]);
    expect(run.recorder.state().incumbent?.commit).toBe(commits[0]?.sha);
    expect(await reconcileLastKeep(deps, p3.text)).toBe('ok');
  });
});

describe('syncPoolRefs after a pool ref was deleted by hand', () => {
  it('points a deleted member ref at its commit again, which later members still name as parent', async () => {
    const r = await makeRepo();
    const run = await writePoolRun({ repo: r, runsDir: r.path('runs'), members: MEMBERS });
    await syncPoolRefs(run.deps, run.recorder.state());
    const before = await r.git(['for-each-ref', '--format=%(refname) %(objectname)']);
    await r.git(['update-ref', '-d', poolRef('cold-email', run.id, 'p1')]);
    expect(await syncPoolRefs(run.deps, run.recorder.state())).toEqual(['p1']);
    expect(await r.git(['for-each-ref', '--format=%(refname) %(objectname)'])).toBe(before);
  });

  it('makes a deleted leaf again: no other ref names its commit', async () => {
    const r = await makeRepo();
    const run = await writePoolRun({ repo: r, runsDir: r.path('runs'), members: MEMBERS });
    await syncPoolRefs(run.deps, run.recorder.state());
    const p3 = poolRef('cold-email', run.id, 'p3');
    await r.git(['update-ref', '-d', p3]);
    expect(await syncPoolRefs(run.deps, run.recorder.state())).toEqual(['p3']);
    expect(await parentsOf(r, p3)).toEqual([
      (await r.git(['rev-parse', poolRef('cold-email', run.id, 'p1')])).trim(),
      (await r.git(['rev-parse', poolRef('cold-email', run.id, 'p2')])).trim(),
    ]);
  });
});
