/**
 * An agent experiment end to end under --provider sim (docs/design/agent-runs.md): the shipped
 * release-notes example run by the built CLI in a fresh repository. Every case is done by the
 * simulated agent in its own workspace; each case's record (agent.json, transcript.md, files/)
 * lands in the run record; keeps commit SKILL.md alone; `show` and the report list the cases; no
 * workspace outlives the run. Then a run killed while its agent cases are being done is resumed:
 * the cases it had finished are taken from their records, the others done again. Needs
 * `npm run build` first.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentCaseRecord } from '../../src/agent/agent-record.js';
import { cleanEnv, REPO_ROOT, requireBuiltCli, runBuiltCli, runFolders } from '../helpers/built-cli.js';
import { expectStatedRise, readResults, readStatedRise } from '../helpers/example-rise.js';
import { createTempRepo, type TempRepo } from '../helpers/temp-repo.js';

const EXAMPLE = 'experiments/release-notes';
const CASES = 8;
let repo: TempRepo;

async function filesUnder(dir: string, base = dir): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) Object.assign(files, await filesUnder(path, base));
    else files[relative(base, path)] = await readFile(path, 'utf8');
  }
  return files;
}

beforeAll(async () => {
  requireBuiltCli();
  const files: Record<string, string> = {
    'rubrics/release-notes.md': await readFile(join(REPO_ROOT, 'rubrics/release-notes.md'), 'utf8'),
  };
  for (const [path, text] of Object.entries(await filesUnder(join(REPO_ROOT, EXAMPLE))))
    files[`${EXAMPLE}/${path}`] = text;
  repo = await createTempRepo({ files, config: { 'user.name': 'Test', 'user.email': 'test@example.com' } });
  await repo.write('tmp/.keep', '');
});
afterAll(async () => {
  await repo?.cleanup();
});

/** A private TMPDIR, so the test can see every workspace the runs make. */
const env = () => cleanEnv({ ...repo.env, TMPDIR: repo.path('tmp') });

async function agentRecords(
  candidateDir: string,
): Promise<Map<string, { record: AgentCaseRecord; mtimeMs: number }>> {
  const records = new Map<string, { record: AgentCaseRecord; mtimeMs: number }>();
  const dir = join(candidateDir, 'agent');
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const file = join(dir, name, 'agent.json');
    const text = await readFile(file, 'utf8').catch(() => undefined);
    if (text === undefined) continue;
    records.set(name, {
      record: AgentCaseRecord.parse(JSON.parse(text)),
      mtimeMs: (await stat(file)).mtimeMs,
    });
  }
  return records;
}

async function workspacesLeft(): Promise<string[]> {
  const found: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
      if (!entry.isDirectory()) continue;
      if (entry.name.startsWith('workspace-')) found.push(join(dir, entry.name));
      else await walk(join(dir, entry.name));
    }
  };
  await walk(repo.path('tmp'));
  return found;
}

describe('release-notes under --provider sim', () => {
  let runId: string;
  let stdout: string;

  it('runs every case as an agent case, records it, and keeps edits to SKILL.md alone', async () => {
    const result = await runBuiltCli(['run', 'release-notes', '--provider', 'sim', '--iterations', '5'], {
      cwd: repo.dir,
      env: env(),
    });
    expect(result.code, result.stderr).toBe(0);
    [runId = ''] = runFolders(repo.path('runs'));
    stdout = result.stdout;
    const runDir = repo.path(`runs/${runId}`);
    // What the example's header tells the user it reaches (by iteration 4 of these 5).
    const stated = await readStatedRise('release-notes');
    expect(stated.iterations).toBeLessThanOrEqual(5);
    expectStatedRise(readResults(await readFile(join(runDir, 'results.tsv'), 'utf8')), stated, result.stdout);
    const baseline = await agentRecords(join(runDir, 'iterations/0000/candidates/0'));
    expect(baseline.size).toBe(CASES);
    for (const [name, { record }] of baseline) {
      expect(record).toMatchObject({ agent: 'sim', endReason: 'done', sample: 0 });
      expect(record.tools['Read']).toBeGreaterThan(0);
      const transcript = await readFile(
        join(runDir, 'iterations/0000/candidates/0/agent', name, 'transcript.md'),
        'utf8',
      );
      expect(transcript).toContain('**Read**');
    }
    // The judge saw each (case, sample) as a folder (docs/design/judge-protocol.md "Agent outputs").
    const map = JSON.parse(
      await readFile(join(runDir, 'iterations/0000/candidates/0/judge-map.json'), 'utf8'),
    ) as { file: string; case_id: string; sample: number }[];
    expect(map).toHaveLength(CASES);
    for (const entry of map) expect(entry.file).toMatch(/^output_\d{2}$/);
    expect(new Set(map.map((m) => m.case_id)).size).toBe(CASES);
    // The shipped skill names no file: the baseline answers in its messages only.
    expect([...baseline.values()].every(({ record }) => record.files.length === 0)).toBe(true);

    const best = await agentRecords(join(runDir, 'final/best'));
    const wrote = [...best.values()].filter(({ record }) =>
      record.files.some((f) => f.path === 'RELEASE_NOTES.md'),
    );
    expect(wrote.length, result.stdout).toBeGreaterThan(CASES / 2);
    const [first] = wrote;
    const kept = await readFile(
      join(runDir, 'final/best/agent', `${first?.record.caseId}.0`, 'files/RELEASE_NOTES.md'),
      'utf8',
    );
    const output = await readFile(
      join(runDir, 'final/best/outputs', `${first?.record.caseId}.0.txt`),
      'utf8',
    );
    expect(output).toContain(`=== RELEASE_NOTES.md ===\n${kept.trimEnd()}`);

    const keeps = (await readFile(join(runDir, 'results.tsv'), 'utf8'))
      .split('\n')
      .filter((l) => l.includes('\tkeep\t'));
    expect(keeps.length).toBeGreaterThan(0);
    const log = await repo.git([
      'log',
      '--format=%H',
      `autoresearch/release-notes/${runId}`,
      '--not',
      'main',
    ]);
    for (const commit of log.split('\n').filter(Boolean))
      expect(await repo.git(['diff-tree', '--no-commit-id', '--name-only', '-r', commit])).toBe(
        `${EXAMPLE}/SKILL.md`,
      );
    expect(await workspacesLeft()).toEqual([]);
  });

  it('show lists each case’s end, turns, tools and files; the report carries them with the transcript', async () => {
    expect(stdout).toContain('keep');
    const show = await runBuiltCli(['show', runId], { cwd: repo.dir, env: env() });
    expect(show.code, show.stderr).toBe(0);
    expect(show.stdout).toMatch(
      /Agent cases \(final check, best\): 8 · done 8 · [\d.]+ turns on average · tools Skill 8, Read \d+, Write \d+/,
    );
    expect(show.stdout).toMatch(
      /v2-4-0 +0 +done +\d+ +Skill 1, Read \d+(, Write 1 +\+RELEASE_NOTES\.md| +none)/,
    );
    const json = JSON.parse(
      (await runBuiltCli(['show', runId, '--json'], { cwd: repo.dir, env: env() })).stdout,
    );
    expect(json.agentCases.records).toHaveLength(CASES);
    // What the mutator was told about agents in iteration 1: train cases only, a line each.
    const detail = await runBuiltCli(['show', runId, '1'], { cwd: repo.dir, env: env() });
    expect(detail.stdout).toContain('What the mutator was told about agents (train cases only):');
    const told = JSON.parse(
      (await runBuiltCli(['show', runId, '1', '--json'], { cwd: repo.dir, env: env() })).stdout,
    ).toldAboutAgents as { caseId: string; end_reason: string; digest: string }[];
    expect(told.length).toBeGreaterThan(0);
    const splits = JSON.parse(
      await readFile(repo.path(`runs/${runId}/iterations/0000/candidates/0/evaluation.json`), 'utf8'),
    ).evaluation.cases as { id: string; split: string }[];
    for (const t of told) {
      expect(splits.find((c) => c.id === t.caseId)?.split).toBe('train');
      expect(t.digest).toMatch(/^end: done .*\ntools: Read ×\d+/);
      expect(t.digest).toContain('1. Skill skill=release-notes\n2. Read notes/');
      expect(detail.stdout).toMatch(new RegExp(`\\n  ${t.caseId}: done after \\d+ turns · Read ×\\d+`));
    }
    const report = await readFile(repo.path(`runs/${runId}/report.html`), 'utf8');
    expect(report).toContain('"endReason":"done"');
    expect(report).toContain('## Turn 1');
  });
});

describe('a run killed during its agent cases', () => {
  it('resumes: finished cases come from their records, the rest are done again in fresh workspaces', async () => {
    const before = new Set(runFolders(repo.path('runs')));
    const killed = await runBuiltCli(['run', 'release-notes', '--provider', 'sim', '--iterations', '2'], {
      cwd: repo.dir,
      env: { ...env(), AUTORESEARCH_TEST_KILL_AT: 'generated:3' },
    });
    expect(killed.code).not.toBe(0);
    const runId = runFolders(repo.path('runs')).find((id) => !before.has(id)) as string;
    // The baseline's evaluation is the first to generate.
    const candidate = repo.path(`runs/${runId}/iterations/0000/candidates/0`);
    const finished = await agentRecords(candidate);
    expect(finished.size).toBeGreaterThanOrEqual(3);
    expect(finished.size).toBeLessThan(CASES);

    const resumed = await runBuiltCli(['resume', runId], { cwd: repo.dir, env: env() });
    expect(resumed.code, resumed.stderr).toBe(0);
    const after = await agentRecords(candidate);
    expect(after.size).toBe(CASES);
    for (const [name, { mtimeMs }] of finished) expect(after.get(name)?.mtimeMs, name).toBe(mtimeMs);
    // The resumed run's mutator was told about the agents, from the records (reused ones too).
    const mutation = JSON.parse(
      await readFile(repo.path(`runs/${runId}/iterations/0001/mutation.json`), 'utf8'),
    );
    const digests = mutation.candidates.flatMap(
      (c: { feedback?: { failing_cases: { agent?: { digest: string } }[] } }) =>
        c.feedback?.failing_cases.map((f) => f.agent?.digest ?? '') ?? [],
    );
    expect(digests.length).toBeGreaterThan(0);
    for (const digest of digests) expect(digest).toContain('1. Skill skill=release-notes\n2. Read notes/');
    // The killed process's workspaces went with its temporary folder.
    expect(await workspacesLeft()).toEqual([]);
  });
});
