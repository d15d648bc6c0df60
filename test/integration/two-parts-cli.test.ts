/**
 * Several optimisable parts (docs/design/prompt-shapes.md) through the built CLI, offline
 * (`--provider sim`), in a real repository: a run killed in the middle of a keep — before its
 * commit, then after the commit but before it is journaled — resumes to exactly one commit per
 * keep, each touching only the files of the parts it names; `diff` shows a diff per part, the
 * report carries one, and `apply` writes each changed part into its own file (refusing a part
 * edited since).
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { splitPromptText } from '../../src/experiment/part-texts.js';
import { buildReportData } from '../../src/report/build-report-data.js';
import { readRunFolder } from '../../src/report/read-run-folder.js';
import { type CliCopy, describeResult, runCli, snapshotCli } from '../kill/support/cli.js';
import { readRunRecord } from '../kill/support/invariants.js';
import { createTempRepo, type TempRepo } from '../helpers/temp-repo.js';

const DIR = 'experiments/notes';
const FILES = { system: `${DIR}/system.md`, 'messages[1]': `${DIR}/user.md` } as const;
const NAMES = Object.keys(FILES);

const EXPERIMENT = `name: notes
prompt:
  system: { file: system.md }
  messages:
    - { role: user, content: "Product: {{product}}" }
    - { role: user, content: { file: user.md } }
cases: cases.yaml
models:
  generator: { provider: anthropic, model: claude-sonnet-4-5, max_tokens: 400 }
  mutator: { provider: anthropic, model: claude-opus-4-1, max_tokens: 2000 }
checks:
  - { type: word-count, max: 90, name: short-enough }
  - { type: not-icontains-any, value: [synergy, leverage, seamless], name: no-buzzwords }
  - { type: icontains, value: "{{product}}", name: names-product }
search: { candidates: 1, holdout: 0.2, min_improvement: 0.01, seed: 5 }
budget: { iterations: 4, hours: 1, patience: 10 }
`;

const CASES = [
  ['dark-mode', 'Paperly', 'Dark mode for the editor'],
  ['csv-export', 'Ledgerly', 'Export reports as CSV'],
  ['sso', 'Teamly', 'Single sign-on with Okta'],
  ['offline', 'Notely', 'Offline editing on mobile'],
  ['search', 'Findly', 'Faster full-text search'],
]
  .map(([id, product, change]) => `- id: ${id}\n  vars: { product: ${product}, change: "${change}" }\n`)
  .join('');

let cli: CliCopy;
let repo: TempRepo;
let run: { id: string; dir: string };

beforeAll(async () => {
  cli = await snapshotCli();
  repo = await createTempRepo({
    files: {
      [`${DIR}/experiment.yaml`]: EXPERIMENT,
      [`${DIR}/cases.yaml`]: CASES,
      [FILES.system]: 'You write release notes for software products.\n',
      [FILES['messages[1]']]: 'Announce this change: {{change}}.\n',
    },
  });
}, 60_000);

afterAll(async () => {
  await repo?.cleanup();
  await cli?.cleanup();
});

const cliIn = (args: string[], killAt?: string) =>
  runCli(cli.main, args, { cwd: repo.dir, env: repo.env, ...(killAt ? { killAt } : {}) });

describe('several optimisable parts through the CLI', () => {
  it('resumes a run killed mid-keep to one commit per keep, touching only the parts it names', async () => {
    const killed = await cliIn(['run', 'notes', '--provider', 'sim', '--iterations', '4'], 'committing:1');
    expect(killed.signal, describeResult(killed)).toBe('SIGKILL');
    const [id = ''] = (await readdir(join(repo.dir, 'runs'), { withFileTypes: true }))
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    run = { id, dir: join(repo.dir, 'runs', id) };
    // The keep's commit is made on resume; this process dies before journaling it.
    const again = await cliIn(['resume', id], 'committed:1');
    expect(again.signal, describeResult(again)).toBe('SIGKILL');
    const done = await cliIn(['resume', id]);
    expect(done.exitCode, describeResult(done)).toBe(0);

    const { state } = await readRunRecord(run.dir);
    const keeps = state.iterations.filter((it) => it.status === 'keep');
    expect(keeps.length).toBeGreaterThan(0);
    expect(keeps.every((it) => it.commit !== null)).toBe(true);
    const branch = `autoresearch/notes/${id}`;
    const commits = (await repo.git(['rev-list', '--reverse', `HEAD..${branch}`])).split('\n');
    expect(commits).toHaveLength(keeps.length);
    expect(commits).toEqual(keeps.map((it) => it.commit));
    for (const sha of commits) {
      const touched = (await repo.git(['diff-tree', '--no-commit-id', '--name-only', '-r', `${sha}^`, sha]))
        .split('\n')
        .sort();
      const parts = await repo.git([
        'log',
        '-1',
        '--format=%(trailers:key=Autoresearch-Parts,valueonly)',
        sha,
      ]);
      const named = parts
        .trim()
        .split(', ')
        .map((name) => FILES[name as keyof typeof FILES]);
      expect(touched, sha).toEqual(named.sort());
    }
    // The branch holds best.md's parts, each in its own file.
    const best = splitPromptText(await readFile(join(run.dir, 'best.md'), 'utf8'), NAMES);
    for (const [name, file] of Object.entries(FILES))
      expect(`${await repo.git(['show', `${branch}:${file}`])}\n`).toBe(best[name]);
  }, 240_000);

  it('diffs part by part, in the terminal, as JSON and in the report', async () => {
    const text = await cliIn(['diff', run.id]);
    expect(text.exitCode, describeResult(text)).toBe(0);
    expect(text.stdout).toMatch(/--- baseline \(iteration 0\): messages\[1\]/);
    expect(text.stdout).toMatch(/: system/);
    const json = JSON.parse((await cliIn(['diff', run.id, '--json'])).stdout);
    expect(json.parts.map((p: { part: string }) => p.part)).toEqual(NAMES);
    expect(json.parts.some((p: { identical: boolean }) => !p.identical)).toBe(true);
    const report = buildReportData(await readRunFolder(run.dir), { now: new Date(), toolVersion: 'test' });
    const kept = report.iterations.find((it) => it.status === 'keep');
    expect(kept?.diff?.parts?.map((p) => p.part)).toEqual(NAMES);
  });

  it('applies each changed part to its own file, refusing a part edited since the run started', async () => {
    const best = splitPromptText(await readFile(join(run.dir, 'best.md'), 'utf8'), NAMES);
    const before = Object.fromEntries(
      await Promise.all(Object.entries(FILES).map(async ([name, file]) => [name, await repo.read(file)])),
    );
    await writeFile(repo.path(FILES.system), 'My own edit.\n');
    const refused = await cliIn(['apply', run.id]);
    expect(refused.exitCode, describeResult(refused)).toBe(2);
    expect(refused.stderr).toContain('system.md was edited after the run started; not overwriting it');
    expect(await repo.read(FILES['messages[1]'])).toBe(before['messages[1]']);

    await writeFile(repo.path(FILES.system), before['system'] as string);
    const applied = await cliIn(['apply', run.id]);
    expect(applied.exitCode, describeResult(applied)).toBe(0);
    const changed = NAMES.filter((name) => best[name] !== before[name]);
    expect(changed.length).toBeGreaterThan(0);
    for (const name of changed) expect(applied.stdout).toContain(`(${name})`);
    for (const [name, file] of Object.entries(FILES)) expect(await repo.read(file)).toBe(best[name]);
  });

  it('diffs the best against the working tree, part by part: identical once applied, then the edit', async () => {
    const same = JSON.parse((await cliIn(['diff', run.id, 'working', '--json'])).stdout);
    expect(same.from.label).toMatch(/^best/);
    expect(same.to.label).toBe(`working tree (${FILES.system}, ${FILES['messages[1]']})`);
    expect(same.identical).toBe(true);

    await writeFile(repo.path(FILES.system), 'My own edit.\n');
    const edited = await cliIn(['diff', run.id, 'working']);
    expect(edited.exitCode, describeResult(edited)).toBe(0);
    expect(edited.stdout).toContain(`+++ working tree (${FILES.system}, ${FILES['messages[1]']}): system`);
    expect(edited.stdout).toContain('+My own edit.');
  });
});
