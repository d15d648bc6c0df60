/**
 * A run written in record version 1, frozen on disk (test/fixtures/runs/record-v1: the
 * experiment and its run folder, model cache and report left out), stays readable and
 * resumable by every later build: `runs` lists it, `show`, `diff` and `report` read it, and
 * `resume` continues it under version 1. A run from a version newer than this build is
 * refused with exit 2 and a hint. Needs `npm run build` first.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJournal } from '../../src/run/journal.js';
import { readManifest } from '../../src/run/manifest.js';
import { runPaths } from '../../src/run/paths.js';
import { reduceRun } from '../../src/run/reducer.js';
import { formatResultsTsv, RESULTS_COLUMNS } from '../../src/run/results-tsv.js';
import type { RunSummary } from '../../src/run/run-summary.js';
import { cleanEnv, REPO_ROOT, requireBuiltCli, runBuiltCli } from '../helpers/built-cli.js';

const FIXTURE = join(REPO_ROOT, 'test/fixtures/runs/record-v1');
const RUN_ID = '20261130-0900-haiku-v001';
let project: string;

/** The fixture in a fresh project folder; the manifest's one absolute path made to point at it. */
async function copyFixture(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'ar-record-v1-'));
  await cp(FIXTURE, dir, { recursive: true });
  const manifest = join(dir, 'runs', RUN_ID, 'manifest.json');
  await writeFile(
    manifest,
    (await readFile(manifest, 'utf8')).replace('"/PROJECT_ROOT"', JSON.stringify(dir)),
  );
  return dir;
}

const cli = (dir: string, ...args: string[]) =>
  runBuiltCli(args, { cwd: dir, env: cleanEnv({ AUTORESEARCH_RUNS_DIR: join(dir, 'runs'), TZ: 'UTC' }) });

beforeAll(async () => {
  requireBuiltCli();
  project = await copyFixture();
});
afterAll(async () => {
  if (project) await rm(project, { recursive: true, force: true });
});

describe('a version-1 run', () => {
  it('is listed by `runs`', async () => {
    const result = await cli(project, 'runs', '--json');
    expect(result.code, result.stderr).toBe(0);
    const [run] = JSON.parse(result.stdout) as RunSummary[];
    expect(run).toMatchObject({
      id: RUN_ID,
      kind: 'run',
      experiment: 'haiku',
      status: 'finished',
      problems: [],
    });
  });

  it('is read by `show`, `diff` and `report`', async () => {
    const show = await cli(project, 'show', RUN_ID);
    expect(show.code, show.stderr).toBe(0);
    expect(show.stderr).toBe('');
    expect(show.stdout).toContain('duplicate');
    const diff = await cli(project, 'diff', RUN_ID);
    expect(diff.code, diff.stderr).toBe(0);
    const report = await cli(project, 'report', RUN_ID);
    expect(report.code, report.stderr).toBe(0);
    expect(await readFile(runPaths(join(project, 'runs', RUN_ID)).report, 'utf8')).toContain('<html');
  });

  it('is resumed under version 1', async () => {
    const runDir = join(project, 'runs', RUN_ID);
    // Version 1 wrote results.tsv without the interval and lineage columns; resume rewrites it.
    const [before] = (await readFile(runPaths(runDir).results, 'utf8')).split('\n');
    expect(before?.split('\t')).toHaveLength(13);
    const result = await cli(project, 'resume', RUN_ID, '--iterations', '+1');
    expect(result.code, result.stderr).toBe(0);
    const { events } = await readJournal(runDir);
    const state = reduceRun(events);
    expect(state.iterations.map((it) => it.iteration)).toEqual([0, 1, 2]);
    expect(state.resumes).toBe(1);
    expect(new Set(events.map((e) => e.v))).toEqual(new Set([1]));
    expect((await readManifest(runDir)).version).toBe(1);
    const results = await readFile(runPaths(runDir).results, 'utf8');
    expect(results).toBe(formatResultsTsv(state));
    expect(results.split('\n')[0]).toBe(RESULTS_COLUMNS.join('\t'));
  }, 120_000);
});

describe('a run from a newer autoresearch', () => {
  it('is refused by `resume` with exit 2 and a hint, and still listed by `runs` with the reason', async () => {
    const dir = await copyFixture();
    try {
      const manifest = join(dir, 'runs', RUN_ID, 'manifest.json');
      const text = await readFile(manifest, 'utf8');
      await writeFile(manifest, text.replace('"version": 1', '"version": 99'));
      const before = await readFile(join(dir, 'runs', RUN_ID, 'events.jsonl'), 'utf8');
      const resume = await cli(dir, 'resume', RUN_ID);
      expect(resume.code).toBe(2);
      expect(resume.stderr).toContain('written by a newer autoresearch (record version 99');
      expect(resume.stderr).toContain('upgrade autoresearch');
      expect(await readFile(join(dir, 'runs', RUN_ID, 'events.jsonl'), 'utf8')).toBe(before);
      const runs = await cli(dir, 'runs', '--json');
      expect(runs.code, runs.stderr).toBe(0);
      const [run] = JSON.parse(runs.stdout) as RunSummary[];
      expect(run?.problems).toEqual([expect.stringContaining('newer autoresearch')]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
