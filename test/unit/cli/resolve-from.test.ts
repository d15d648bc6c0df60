/**
 * `run --from` resolution on realistic run folders written by code (test/helpers/fixture-run.ts,
 * fixture-pool.ts): the source's best or pool member with its digest and commit, and every refusal
 * as a usage error.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveFrom } from '../../../src/cli/resolve-from.js';
import { isAutoresearchError } from '../../../src/errors.js';
import type { Experiment, PromptShape } from '../../../src/experiment/types.js';
import { hashPrompt } from '../../../src/prompt-hash.js';
import { runPaths } from '../../../src/run/paths.js';
import { listPoolRefs, poolRef, syncPoolRefs } from '../../../src/git/pool-refs.js';
import { type PoolRunMember, writePoolRun } from '../../helpers/pool-run.js';
import { createTempRepo } from '../../helpers/temp-repo.js';
import { writeFixtureRun } from '../../helpers/fixture-run.js';
import { useTempDir } from '../../helpers/temp-dir.js';

const tempDir = useTempDir('resolve-from-');

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
  },
  {
    id: 'p2',
    iteration: 1,
    candidate: 1,
    kind: 'mutation',
    parents: ['p0'],
    text: 'Name their pain, {{name}}.\n',
  },
];

const ONE_PART: PromptShape = {
  parts: [{ name: 'prompt', role: 'user', text: 'x', path: '/p/prompt.md', optimise: true }],
};
const TWO_PARTS: PromptShape = {
  parts: [
    { name: 'system', role: 'system', text: 'x', path: '/p/system.md', optimise: true },
    { name: 'messages[0]', role: 'user', text: 'y', path: '/p/user.md', optimise: true },
  ],
};

function target(name = 'cold-email', shape = ONE_PART, strategy: 'pareto' | 'greedy' = 'pareto') {
  // Not a git repository: commits of pool members cannot be read, the best's come from the journal.
  return { name, shape, dir: tempDir(), config: { search: searchWith(strategy) } };
}

function searchWith(strategy: 'pareto' | 'greedy'): Experiment['config']['search'] {
  // resolveFrom reads the strategy alone.
  return { strategy } as Experiment['config']['search'];
}

async function usageError(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (isAutoresearchError(error) && (error.code === 'E_USAGE' || error.code === 'E_NOT_FOUND'))
      return `${error.message}\n${error.hint ?? ''}`;
    throw error;
  }
  throw new Error('expected a usage error');
}

describe('resolveFrom', () => {
  it("takes a greedy run's best: its text, digest, score and the keep's commit on the run branch", async () => {
    const runsDir = join(tempDir(), 'runs');
    const run = await writeFixtureRun(runsDir);
    const { from, notes } = await resolveFrom(run.id.slice(0, 16), runsDir, target());
    const best = await readFile(runPaths(run.dir).best, 'utf8');
    const keep = run.events.filter((e) => e.type === 'commit').at(-1);
    expect(from).toMatchObject({
      runId: run.id,
      experiment: 'cold-email',
      take: 'best',
      member: null,
      promptSha256: hashPrompt(best),
      text: best,
      ref: `refs/heads/autoresearch/cold-email/${run.id}`,
    });
    expect(keep?.type === 'commit' && from.commit).toBe(keep?.type === 'commit' ? keep.sha : null);
    expect(from.iteration).toBeGreaterThan(0);
    expect(from.train).toBeTypeOf('number');
    expect(notes).toEqual([]);
  });

  it("takes one pool member of a pareto run with its pool ref's commit", async () => {
    const repo = await createTempRepo({ files: { 'experiments/cold-email/prompt.md': START } });
    try {
      const runsDir = join(repo.home, 'runs');
      const run = await writePoolRun({ repo, runsDir, members: MEMBERS });
      await syncPoolRefs(run.deps, run.recorder.state());
      const experiment = { ...target(), dir: repo.dir };
      const member = await resolveFrom(`${run.id}/p2`, runsDir, experiment);
      const ref = poolRef('cold-email', run.id, 'p2');
      const sha = (await listPoolRefs(run.git, 'cold-email', run.id)).find((r) => r.member === 'p2')?.sha;
      expect(member.from).toMatchObject({
        take: 'member',
        member: 'p2',
        iteration: 1,
        text: MEMBERS[2]?.text,
        promptSha256: hashPrompt(MEMBERS[2]?.text as string),
        ref,
        commit: sha,
      });
      // The seed is a member too: the run's baseline, at iteration 0.
      const seed = await resolveFrom(`${run.id}/P0`, runsDir, experiment);
      expect(seed.from).toMatchObject({ take: 'member', member: 'p0', iteration: 0, text: START });
    } finally {
      await repo.cleanup();
    }
  }, 60_000);

  it("takes a pareto run's whole pool: its best, and every other member as a seed with its pool ref", async () => {
    const repo = await createTempRepo({ files: { 'experiments/cold-email/prompt.md': START } });
    try {
      const runsDir = join(repo.home, 'runs');
      // p3 repeats p1's prompt: the new pool holds it once.
      const members = [
        ...MEMBERS,
        { ...(MEMBERS[1] as PoolRunMember), id: 'p3', iteration: 2, candidate: 0 },
      ];
      const run = await writePoolRun({ repo, runsDir, members });
      await syncPoolRefs(run.deps, run.recorder.state());
      const pool = await resolveFrom(`${run.id}/pool`, runsDir, { ...target(), dir: repo.dir });
      const refs = await listPoolRefs(run.git, 'cold-email', run.id);
      const best = run.recorder.state().pool?.best;
      expect(best).toBe('p0');
      expect(pool.from).toMatchObject({ take: 'pool', member: 'p0', text: START });
      expect(pool.from.seeds?.map((s) => [s.member, s.text, s.commit])).toEqual([
        ['p1', MEMBERS[1]?.text, refs.find((r) => r.member === 'p1')?.sha],
        ['p2', MEMBERS[2]?.text, refs.find((r) => r.member === 'p2')?.sha],
      ]);
      expect(pool.from.seeds?.[0]?.promptSha256).toBe(hashPrompt(MEMBERS[1]?.text as string));
    } finally {
      await repo.cleanup();
    }
  }, 60_000);

  it('allows a run of another experiment whose prompt has the same shape, and says so', async () => {
    const runsDir = join(tempDir(), 'runs');
    const run = await writeFixtureRun(runsDir);
    const { notes } = await resolveFrom(run.id, runsDir, target('cold-email-v2'));
    expect(notes).toEqual([
      `--from ${run.id} is a run of cold-email; its prompt has the same shape as cold-email-v2's`,
    ]);
  });

  it('refuses a prompt of another shape, naming both', async () => {
    const runsDir = join(tempDir(), 'runs');
    const run = await writeFixtureRun(runsDir);
    expect(await usageError(resolveFrom(run.id, runsDir, target('support-bot', TWO_PARTS)))).toContain(
      `--from ${run.id}: it is a run of cold-email, whose prompt had one optimised part; support-bot has the optimised parts system, messages[0]`,
    );
  });

  it("refuses a model-call prompt for an agent's skill", async () => {
    const runsDir = join(tempDir(), 'runs');
    const run = await writeFixtureRun(runsDir);
    const skill = { ...target('skill-triggers'), agent: { place: 'skill' } as Experiment['agent'] };
    expect(await usageError(resolveFrom(run.id, runsDir, skill))).toContain(
      `--from ${run.id}: its prompt is a prompt for model calls; skill-triggers optimises an agent's skill`,
    );
  });

  it('refuses an unknown run, a member or the pool of a greedy run, and a pool for a greedy search', async () => {
    const runsDir = join(tempDir(), 'runs');
    const run = await writeFixtureRun(runsDir);
    expect(await usageError(resolveFrom('nosuch', runsDir, target()))).toContain('no run matches "nosuch"');
    expect(await usageError(resolveFrom(`${run.id}/p3`, runsDir, target()))).toContain(
      `run ${run.id} has no pool member p3: it has no pool`,
    );
    expect(await usageError(resolveFrom(`${run.id}/pool`, runsDir, target()))).toContain(
      `run ${run.id} searched greedily and has no pool`,
    );
    const greedy = target('cold-email', ONE_PART, 'greedy');
    expect(await usageError(resolveFrom(`${run.id}/pool`, runsDir, greedy))).toContain(
      'a whole pool seeds a pareto search, and cold-email searches greedily',
    );
  });

  it('refuses a run with no best yet and a record that is no optimization run', async () => {
    const runsDir = join(tempDir(), 'runs');
    const run = await writeFixtureRun(runsDir);
    // The same run cut back to its start: no baseline has finished.
    const started = join(runsDir, '20261201-0000-cold-email-none');
    await mkdir(started, { recursive: true });
    const manifest = JSON.parse(await readFile(runPaths(run.dir).manifest, 'utf8'));
    await writeFile(runPaths(started).manifest, JSON.stringify({ ...manifest, runId: 'x' }));
    await writeFile(runPaths(started).events, `${JSON.stringify(run.events[0])}\n`);
    expect(await usageError(resolveFrom('20261201-0000-cold-email-none', runsDir, target()))).toContain(
      'the run has no best prompt yet',
    );
    await writeFile(runPaths(started).manifest, JSON.stringify({ ...manifest, kind: 'eval' }));
    expect(await usageError(resolveFrom('20261201-0000-cold-email-none', runsDir, target()))).toContain(
      'it is an evaluation, not an optimization run',
    );
  });
});
