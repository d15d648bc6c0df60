/**
 * `run <exp> --from <run>/pool` through the built CLI under the simulated provider, on the pareto
 * release-note fixture: a source run of one iteration that keeps one member and pools another,
 * then a run from its whole pool — killed right after its start and resumed — whose baseline is
 * the source's best and whose other starting members are the source's other live members, each
 * evaluated afresh and admitted as a seed with the member it came from. `validate --from` counts
 * the seeds among the baseline's evaluations, and the run spends exactly that; `show` names the
 * source and the seeds; every new member has its pool ref. A greedy run cannot take a pool.
 * Needs `npm run build` first.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRepo } from '../../src/git/open-repo.js';
import { listPoolRefs } from '../../src/git/pool-refs.js';
import { readJournal } from '../../src/run/journal.js';
import { candidatePaths } from '../../src/run/paths.js';
import { cleanEnv, REPO_ROOT, requireBuiltCli, runBuiltCli, runFolders } from '../helpers/built-cli.js';
import { createTempRepo, readTreeBytes, type TempRepo } from '../helpers/temp-repo.js';

const FIXTURE = 'release-note-pareto';
let repo: TempRepo;
let env: NodeJS.ProcessEnv;
let source: string;
let started: string;

function run(args: string[], extra: NodeJS.ProcessEnv = {}) {
  return runBuiltCli(args, { cwd: repo.dir, env: { ...env, NO_COLOR: '1', ...extra } });
}

async function newRun(args: string[], extra: NodeJS.ProcessEnv = {}) {
  const before = new Set(runFolders(repo.path('runs')));
  const result = await run(args, extra);
  const added = runFolders(repo.path('runs')).filter((id) => !before.has(id));
  expect(added, result.stderr).toHaveLength(1);
  return { id: added[0] as string, result };
}

interface Member {
  id: string;
  kind: string;
  iteration: number;
  candidate: number;
  train: number | null;
  hypothesis: string | null;
}

/** A member's prompt, from the candidate folder that made it. */
function promptOf(runId: string, member: Member): Promise<string> {
  return readFile(
    candidatePaths(repo.path(`runs/${runId}`), member.iteration, member.candidate).prompt,
    'utf8',
  );
}

async function showJson(id: string) {
  const shown = await run(['show', id, '--json']);
  expect(shown.code, shown.stderr).toBe(0);
  return JSON.parse(shown.stdout);
}

/** Generator calls the run spent on its baseline (iteration 0), from its spend events. */
async function baselineGenerations(id: string): Promise<number> {
  const { events } = await readJournal(repo.path(`runs/${id}`));
  let calls = 0;
  for (const e of events)
    if (e.type === 'spend' && e.iteration === 0 && e.role === 'generator' && e.phase !== 'final')
      calls += e.calls;
  return calls;
}

beforeAll(async () => {
  requireBuiltCli();
  const files: Record<string, string> = {};
  for (const [file, bytes] of await readTreeBytes(path.join(REPO_ROOT, 'test/fixtures/kill', FIXTURE)))
    files[`experiments/${FIXTURE}/${file}`] = bytes.toString('utf8');
  // The same experiment under the greedy search, to be refused a pool.
  const greedy = files[`experiments/${FIXTURE}/experiment.yaml`]
    ?.replace('strategy: pareto', 'strategy: greedy')
    .replace(`name: ${FIXTURE}`, 'name: release-note-greedy');
  for (const [name, text] of Object.entries(files))
    files[name.replace(FIXTURE, 'release-note-greedy')] = text;
  files['experiments/release-note-greedy/experiment.yaml'] = greedy ?? '';
  repo = await createTempRepo({ files });
  env = cleanEnv(repo.env);
  const made = await newRun(['run', FIXTURE, '--provider', 'sim', '--iterations', '1']);
  expect(made.result.code, made.result.stderr).toBe(0);
  source = made.id;
  const killed = await newRun(
    ['run', FIXTURE, '--provider', 'sim', '--iterations', '0', '--from', `${source}/pool`],
    { AUTORESEARCH_TEST_KILL_AT: 'started:1' },
  );
  expect(killed.result.code).not.toBe(0);
  started = killed.id;
  const resumed = await run(['resume', started]);
  expect(resumed.code, resumed.stderr).toBe(0);
}, 240_000);

afterAll(async () => {
  await repo?.cleanup();
});

describe('run --from <run>/pool', () => {
  it("starts from the source's best with its other live members as seeds, each evaluated afresh", async () => {
    const before = (await showJson(source)).pool;
    // The fixture's first iteration keeps one member and pools another: three live members.
    expect(before.members.map((m: Member) => m.id)).toEqual(['p0', 'p1', 'p2']);
    const best: string = before.best;
    const others = ['p0', 'p1', 'p2'].filter((id) => id !== best);
    const textOf = (id: string) =>
      promptOf(
        source,
        before.members.find((m: Member) => m.id === id),
      );

    const manifest = JSON.parse(await readFile(repo.path(`runs/${started}/manifest.json`), 'utf8'));
    expect(manifest.from).toMatchObject({
      runId: source,
      take: 'pool',
      member: best,
      text: await textOf(best),
    });
    expect(manifest.from.seeds.map((s: { member: string }) => s.member)).toEqual(others);
    for (const seed of manifest.from.seeds) {
      expect(seed.text).toBe(await textOf(seed.member));
      expect(seed.commit).toMatch(/^[0-9a-f]{40}$/);
    }

    const after = (await showJson(started)).pool;
    expect(after.members.map((m: Member) => `${m.id}:${m.kind}`)).toEqual(['p0:seed', 'p1:seed', 'p2:seed']);
    expect(after.members.slice(1).map((m: Member) => m.hypothesis)).toEqual(
      others.map((id) => `a seed: ${id} of run ${source}`),
    );
    for (const [i, id] of [best, ...others].entries())
      expect(await promptOf(started, after.members[i])).toBe(await textOf(id));
    // Each has a score row of its own, from the fresh evaluation.
    for (const member of after.members) expect(member.train).toEqual(expect.any(Number));
  });

  it('spends on its baseline what validate --from said: one evaluation more per seed', async () => {
    const planned = await run(['validate', FIXTURE, '--provider', 'sim', '--from', `${source}/pool`]);
    expect(planned.code, planned.stderr).toBe(0);
    expect(planned.stdout).toMatch(/baseline: 3 evaluations/);
    expect(`${planned.stdout}\n${planned.stderr}`.replace(/\s+/g, ' ')).toContain(
      `the run would start from the pool of run ${source}`,
    );
    expect(await baselineGenerations(started)).toBe(3 * (await baselineGenerations(source)));
  });

  it('is named by show, with its seeds, and every member has its pool ref', async () => {
    const shown = await run(['show', started]);
    expect(shown.code, shown.stderr).toBe(0);
    // The From field wraps at the terminal's width: read it as one line.
    const text = shown.stdout.replace(/\s+/g, ' ');
    expect(text).toMatch(
      new RegExp(`From\\s+the pool of run ${source} \\(its best, from iteration \\d+, and 2 more members\\)`),
    );
    expect(text).toMatch(/evaluated afresh as the baseline\); seeds p\d, p\d evaluated beside it Status/);
    expect(shown.stdout).toMatch(/^p1 ◆? +- +baseline .* a seed: p\d of run /m);
    const json = (await showJson(started)).run.from;
    expect(json).toMatchObject({ runId: source, take: 'pool' });
    expect(json.text).toBeUndefined();
    expect(json.seeds.every((s: { text?: string }) => s.text === undefined)).toBe(true);

    const members: Member[] = (await showJson(started)).pool.members;
    const git = await openRepo(repo.dir, { env });
    if (git === null) throw new Error('the test repository is not a git repository');
    const refs = await listPoolRefs(git, FIXTURE, started);
    expect(refs.map((r) => r.member).sort()).toEqual(['p0', 'p1', 'p2']);
    for (const ref of refs) {
      const member = members.find((m) => m.id === ref.member) as Member;
      const shownAt = await execa('git', ['show', `${ref.sha}:experiments/${FIXTURE}/prompt.md`], {
        cwd: repo.dir,
        env,
      });
      expect(shownAt.stdout).toBe((await promptOf(started, member)).replace(/\n$/, ''));
    }
  });

  it('refuses a pool for a greedy run with exit 2, writing nothing', async () => {
    const before = runFolders(repo.path('runs'));
    const refused = await run([
      'run',
      'release-note-greedy',
      '--provider',
      'sim',
      '--from',
      `${source}/pool`,
    ]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/pareto/);
    expect(runFolders(repo.path('runs'))).toEqual(before);
  });
});
