/**
 * The pool at the command line (docs/design/pareto-search.md), on pareto runs journaled directly
 * (test/helpers/pool-run.ts) and the built CLI: `prune` deletes a run's pool refs and says how many
 * (refused while the run holds its lock), `apply <run> p<n>` writes a member's prompt
 * (drift-checked like the best), `diff <run> p1 p3` compares members part by part, and an unknown
 * member is exit 2 with the list and a did-you-mean.
 */
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { joinPartTexts } from '../../src/experiment/part-texts.js';
import { listPoolRefs, syncPoolRefs } from '../../src/git/pool-refs.js';
import { acquireRunLock } from '../../src/run/lock.js';
import { currentProcessIdentity } from '../../src/run/process-identity.js';
import { CLI_MAIN, cleanEnv, requireBuiltCli } from '../helpers/built-cli.js';
import { type PoolRun, type PoolRunMember, writePoolRun } from '../helpers/pool-run.js';
import { createTempRepo, type TempRepo } from '../helpers/temp-repo.js';

const PROMPT = 'experiments/cold-email/prompt.md';
const START = 'Write to {{name}}.\n';
const MEMBERS: PoolRunMember[] = [
  { id: 'p0', iteration: 0, candidate: 0, kind: 'seed', parents: [], text: START },
  {
    id: 'p1',
    iteration: 1,
    candidate: 0,
    kind: 'mutation',
    parents: ['p0'],
    text: 'Write briefly to {{name}}.\n',
    train: 0.61,
  },
  {
    id: 'p2',
    iteration: 1,
    candidate: 1,
    kind: 'mutation',
    parents: ['p0'],
    text: 'Write to {{name}}. Name their pain.\n',
  },
  {
    id: 'p3',
    iteration: 2,
    candidate: 0,
    kind: 'merge',
    parents: ['p1', 'p2'],
    text: 'Write briefly to {{name}}. Name their pain.\n',
  },
];

let repo: TempRepo;
let run: PoolRun;
let runsDir: string;

function cli(args: string[]) {
  return execa(process.execPath, [CLI_MAIN, '--runs-dir', runsDir, ...args], {
    cwd: repo.dir,
    env: cleanEnv({ HOME: repo.home, XDG_CONFIG_HOME: join(repo.home, '.config'), GIT_CONFIG_NOSYSTEM: '1' }),
    extendEnv: false,
    reject: false,
    stdin: 'ignore',
  });
}

beforeAll(async () => {
  requireBuiltCli();
  repo = await createTempRepo({ files: { 'README.md': '# project\n', [PROMPT]: START } });
  // Outside the work tree: the run folder is not part of what apply may change.
  runsDir = join(repo.home, 'runs');
  run = await writePoolRun({ repo, runsDir, members: MEMBERS });
}, 120_000);

afterAll(async () => {
  await repo?.cleanup();
});

describe('autoresearch prune', () => {
  it('deletes the run’s pool refs, says how many, and leaves the branch', async () => {
    const none = await cli(['prune', run.id]);
    expect(none.exitCode, none.stderr).toBe(0);
    expect(none.stdout).toContain(`run ${run.id} has no pool refs`);

    await syncPoolRefs(run.deps, run.recorder.state());
    expect(await listPoolRefs(run.git, 'cold-email', run.id)).toHaveLength(4);
    const pruned = await cli(['prune', run.id]);
    expect(pruned.exitCode, pruned.stderr).toBe(0);
    expect(pruned.stdout).toContain(`deleted 4 pool refs of run ${run.id}`);
    expect(await listPoolRefs(run.git, 'cold-email', run.id)).toEqual([]);
    expect(await repo.git(['rev-parse', `refs/heads/${run.branch.branch}`])).toBe(run.branch.head);
    // Derived from the journal: the next sync (a resume) makes them again.
    expect(await syncPoolRefs(run.deps, run.recorder.state())).toEqual(['p0', 'p1', 'p2', 'p3']);
  });

  it('refuses a run that is still going (it holds its lock), exit 2, deleting nothing', async () => {
    await syncPoolRefs(run.deps, run.recorder.state());
    const lock = await acquireRunLock(run.dir, await currentProcessIdentity());
    try {
      const refused = await cli(['prune', run.id]);
      expect(refused.exitCode).toBe(2);
      expect(refused.stderr).toContain(`run ${run.id} is in use`);
      expect(await listPoolRefs(run.git, 'cold-email', run.id)).toHaveLength(4);
    } finally {
      await lock.release();
    }
  });
});

describe('autoresearch apply <run> p<n>', () => {
  it('writes that member’s prompt into the working tree', async () => {
    const applied = await cli(['apply', run.id, 'p2']);
    expect(applied.exitCode, applied.stderr).toBe(0);
    expect(applied.stdout).toContain(
      `wrote pool member p2 of ${run.id} — iteration 1 (train 0.500) — to ${PROMPT}`,
    );
    expect(await repo.read(PROMPT)).toBe((MEMBERS[2] as PoolRunMember).text);
    // Applying it again is no edit of the user's to protect: it says so and exits 0.
    const again = await cli(['apply', run.id, 'p2']);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stdout).toContain(
      `pool member p2 of ${run.id} — iteration 1 (train 0.500) — is already in ${PROMPT}`,
    );
  });

  it('refuses, unless --force, when the working-tree prompt changed after the run started', async () => {
    // The previous test's apply changed it: exactly the drift apply must not overwrite silently.
    const refused = await cli(['apply', run.id, 'p3']);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('was edited after the run started; not overwriting it');
    // The hint shows what the user changed, not the run's own diff.
    expect(refused.stderr).toMatch(/git diff [0-9a-f]{12} -- /);
    expect(await repo.read(PROMPT)).toBe((MEMBERS[2] as PoolRunMember).text);
    const forced = await cli(['apply', run.id, 'p3', '--force']);
    expect(forced.exitCode, forced.stderr).toBe(0);
    expect(await repo.read(PROMPT)).toBe((MEMBERS[3] as PoolRunMember).text);
    await repo.write(PROMPT, START);
  });

  it('names an unknown member’s neighbours and the members, exit 2', async () => {
    const unknown = await cli(['apply', run.id, 'p33']);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain(`run ${run.id} has no pool member p33`);
    expect(unknown.stderr).toContain('did you mean p3? its members are p0, p1, p2, p3');
    const notMember = await cli(['apply', run.id, 'best']);
    expect(notMember.exitCode).toBe(2);
    expect(notMember.stderr).toContain('"best" does not name a pool member');
    expect(await repo.read(PROMPT)).toBe(START);
  });
});

describe('autoresearch diff <run> p<a> p<b>', () => {
  it('diffs two members, and one member against its first parent', async () => {
    const two = await cli(['diff', run.id, 'p1', 'p3']);
    expect(two.exitCode, two.stderr).toBe(0);
    expect(two.stdout).toContain('p1 (iteration 1, from p0)');
    expect(two.stdout).toContain('p3 (iteration 2, merge of p1 and p2)');
    expect(two.stdout).toContain('-Write briefly to {{name}}.');
    expect(two.stdout).toContain('+Write briefly to {{name}}. Name their pain.');
    // No keep was journaled: p0 is still the run's best.
    const one = await cli(['diff', run.id, 'p2', '--json']);
    expect(one.exitCode, one.stderr).toBe(0);
    const json = JSON.parse(one.stdout) as { from: { label: string; text: string }; to: { label: string } };
    expect(json.from).toMatchObject({ label: 'p0 (iteration 0, the baseline, the best)', text: START });
    expect(json.to.label).toBe('p2 (iteration 1, from p0)');
    const unknown = await cli(['diff', run.id, 'p1', 'p9']);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain('has no pool member p9');
  });

  it('shows a run of several parts part by part', async () => {
    const parts = { system: 'app/system.md', 'messages[0]': 'app/user.md' };
    const other = await createTempRepo({
      files: { 'app/system.md': 'You write sales emails.\n', 'app/user.md': 'Write to {{name}}.\n' },
    });
    try {
      const doc = (system: string, user: string) => joinPartTexts({ system, 'messages[0]': user });
      const partsRun = await writePoolRun({
        repo: other,
        runsDir,
        runId: '20261201-2101-cold-email-prts',
        parts,
        members: [
          {
            ...(MEMBERS[0] as PoolRunMember),
            text: doc('You write sales emails.\n', 'Write to {{name}}.\n'),
          },
          {
            ...(MEMBERS[1] as PoolRunMember),
            text: doc('You write short sales emails.\n', 'Write to {{name}}.\n'),
          },
        ],
      });
      const diff = await cli(['diff', partsRun.id, 'p1']);
      expect(diff.exitCode, diff.stderr).toBe(0);
      expect(diff.stdout).toContain('p1 (iteration 1, from p0): system');
      expect(diff.stdout).toContain('+You write short sales emails.');
      expect(diff.stdout).toContain('p1 (iteration 1, from p0): messages[0]');

      const applied = execa(process.execPath, [CLI_MAIN, '--runs-dir', runsDir, 'apply', partsRun.id, 'p1'], {
        cwd: other.dir,
        env: cleanEnv({ HOME: other.home, GIT_CONFIG_NOSYSTEM: '1' }),
        extendEnv: false,
        reject: false,
      });
      const result = await applied;
      expect(result.exitCode, result.stderr).toBe(0);
      expect(result.stdout).toContain('app/system.md (system)');
      expect(result.stdout).not.toContain('app/user.md');
      expect(await other.read('app/system.md')).toBe('You write short sales emails.\n');
    } finally {
      await other.cleanup();
    }
  });
});

describe('a run without a pool', () => {
  it('says members belong to pareto runs, exit 2', async () => {
    const greedy = await writePoolRun({ repo, runsDir, runId: '20261201-2102-cold-email-grdy', members: [] });
    const result = await cli(['apply', greedy.id, 'p1']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(`run ${greedy.id} has no pool member p1: it has no pool`);
    expect(result.stderr).toContain('pareto search only');
  });
});
