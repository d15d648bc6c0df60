/**
 * `run <exp> --from <run>` through the built CLI on the shipped `cold-email` experiment under the
 * simulated provider: a run of one iteration that keeps a change, then a run from its best —
 * killed right after its start and resumed, so the baseline is evaluated from what the manifest
 * holds, not from the working tree. The new baseline's prompt is the old best, committed on the
 * new branch; the working tree is untouched; `show` names the source. Refusals write nothing.
 * Needs `npm run build` first.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, REPO_ROOT, requireBuiltCli, runBuiltCli, runFolders } from '../helpers/built-cli.js';
import { createTempRepo, readTreeBytes, type TempRepo } from '../helpers/temp-repo.js';

const PROMPT = 'experiments/cold-email/prompt.md';
let repo: TempRepo;
let env: NodeJS.ProcessEnv;
let first: string;
let second: string;

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

beforeAll(async () => {
  requireBuiltCli();
  const files: Record<string, string> = {};
  for (const [file, bytes] of await readTreeBytes(path.join(REPO_ROOT, 'experiments/cold-email')))
    files[`experiments/cold-email/${file}`] = bytes.toString('utf8');
  for (const [file, bytes] of await readTreeBytes(path.join(REPO_ROOT, 'rubrics')))
    files[`rubrics/${file}`] = bytes.toString('utf8');
  repo = await createTempRepo({ files });
  env = cleanEnv(repo.env);
  const made = await newRun(['run', 'cold-email', '--provider', 'sim', '--iterations', '1']);
  expect(made.result.code, made.result.stderr).toBe(0);
  first = made.id;
  // Killed as soon as its start is journaled, then resumed: the baseline is evaluated from the manifest.
  const killed = await newRun(
    ['run', 'cold-email', '--provider', 'sim', '--iterations', '0', '--from', first],
    {
      AUTORESEARCH_TEST_KILL_AT: 'started:1',
    },
  );
  expect(killed.result.code).not.toBe(0);
  second = killed.id;
  const resumed = await run(['resume', second]);
  expect(resumed.code, resumed.stderr).toBe(0);
}, 240_000);

afterAll(async () => {
  await repo?.cleanup();
});

describe('run --from', () => {
  it("evaluates the old best afresh as the new baseline and commits it on the new run's branch", async () => {
    const oldBest = await readFile(repo.path(`runs/${first}/best.md`), 'utf8');
    const working = await readFile(repo.path(PROMPT), 'utf8');
    // The first run kept a change: its best is not what the working tree holds.
    expect(oldBest).not.toBe(working);
    const baseline = await readFile(
      repo.path(`runs/${second}/iterations/0000/candidates/0/prompt.md`),
      'utf8',
    );
    expect(baseline).toBe(oldBest);
    const manifest = JSON.parse(await readFile(repo.path(`runs/${second}/manifest.json`), 'utf8'));
    expect(manifest.from).toMatchObject({
      runId: first,
      experiment: 'cold-email',
      take: 'best',
      text: oldBest,
    });
    expect(manifest.from.commit).toMatch(/^[0-9a-f]{40}$/);
    const git = (args: string[]) => execa('git', args, { cwd: repo.dir, env });
    const branch = `autoresearch/cold-email/${second}`;
    expect((await git(['show', `${branch}:${PROMPT}`])).stdout).toBe(oldBest.replace(/\n$/, ''));
    expect((await git(['log', '-1', '--format=%B', branch])).stdout).toContain(
      `The run starts from the best of run ${first}`,
    );
    // The working tree is never written.
    expect(await readFile(repo.path(PROMPT), 'utf8')).toBe(working);
    expect((await git(['status', '--porcelain', '--', 'experiments'])).stdout).toBe('');
  });

  it('is named by show, as text and as JSON', async () => {
    const text = await run(['show', second]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(new RegExp(`From\\s+the best of run ${first} \\(iteration 1\\)`));
    const json = await run(['show', second, '--json']);
    const from = JSON.parse(json.stdout).run.from;
    expect(from).toMatchObject({ runId: first, take: 'best', iteration: 1 });
    expect(from.text).toBeUndefined();
  });

  it('refuses an unknown member and resume --from with exit 2, writing nothing', async () => {
    const before = runFolders(repo.path('runs'));
    const member = await run(['run', 'cold-email', '--provider', 'sim', '--from', `${first}/p7`]);
    expect(member.code).toBe(2);
    expect(member.stderr).toContain(`run ${first} has no pool member p7`);
    const resume = await run(['resume', second, '--from', first]);
    expect(resume.code).toBe(2);
    expect(resume.stderr).toContain('--from starts a new run');
    expect(runFolders(repo.path('runs'))).toEqual(before);
  });
});
