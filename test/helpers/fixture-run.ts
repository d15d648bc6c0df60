/**
 * Realistic run folders for review tests (show, diff, watch, report), written by code: a
 * scenario (fixture-scenarios.ts) is played the way the loop would (fixture-planner.ts),
 * producing the journal and every artifact — prompts, one email per case, checks.json,
 * judge-scores.json + judge-map.json, grading/<case>.json, mutation.json, decision.json —
 * then results.tsv, best.md and manifest.json. One output carries hostile markup.
 *
 *   const run = await writeFixtureRun(runsDir);                        // the full overnight run
 *   const run = await writeFixtureRun(runsDir, { scenario: 'sparse', running: true });
 *   const plan = planFixtureRun(); await writeFixtureFiles(dir, plan);  // the folder, journal left to the test
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunEvent } from '../../src/run/events.js';
import { runPaths } from '../../src/run/paths.js';
import { reduceRun } from '../../src/run/reducer.js';
import { formatResultsTsv } from '../../src/run/results-tsv.js';
import { FixturePlanner } from './fixture-planner.js';
import { FULL, SPARSE, fixtureManifest } from './fixture-scenarios.js';

export { HOSTILE_IMG, HOSTILE_SCRIPT } from './fixture-scenarios.js';

export const FIXTURE_RUN_ID = '20261129-2230-cold-email-k3f9';

export interface FixtureOptions {
  scenario?: 'full' | 'sparse';
  runId?: string;
  /** Leave the run open: no final evaluation and no stop (sparse also leaves an iteration in progress). */
  running?: boolean;
}

export interface FixturePlan {
  id: string;
  events: RunEvent[];
  /** Path relative to the run folder → contents. */
  files: Map<string, string>;
  best: string;
}

export interface FixtureRun {
  id: string;
  dir: string;
  events: RunEvent[];
}

/** Everything a fixture run consists of, without touching disk. */
export function planFixtureRun(options: FixtureOptions = {}): FixturePlan {
  const sparse = options.scenario === 'sparse';
  const id = options.runId ?? (sparse ? '20261128-0915-cold-email-s1p2' : FIXTURE_RUN_ID);
  const plan = sparse ? SPARSE : FULL;
  const planner = new FixturePlanner(
    sparse ? '2026-11-28T09:15:00.000Z' : '2026-11-29T22:30:00.000Z',
    !sparse,
    sparse ? 1 : 3,
  );
  planner.emit(
    {
      type: 'run_started',
      runId: id,
      kind: 'run',
      experiment: 'cold-email',
      configDigest: 'c'.repeat(64),
      overrides: {},
      git: { branch: `autoresearch/cold-email/${id}`, base: 'c0ffee'.padEnd(40, '0'), baselineCommit: null },
      simulated: sparse ? ['generator', 'mutator'] : [],
    },
    0,
  );
  const last = options.running && sparse ? plan.length - 1 : plan.length;
  for (let iteration = 0; iteration < last; iteration++) planner.iteration(iteration, plan[iteration]!);
  if (options.running && sparse) planner.inProgress(plan.length - 1);
  else if (!options.running) planner.stop(plan.length - 1);
  return { id, events: planner.events, files: planner.files, best: planner.incumbent.prompt };
}

export async function writeFixtureRun(runsDir: string, options: FixtureOptions = {}): Promise<FixtureRun> {
  const plan = planFixtureRun(options);
  const dir = join(runsDir, plan.id);
  await writeFixtureFiles(dir, plan);
  await writeFile(runPaths(dir).events, plan.events.map((e) => `${JSON.stringify(e)}\n`).join(''));
  await writeFile(runPaths(dir).results, formatResultsTsv(reduceRun(plan.events)));
  return { id: plan.id, dir, events: plan.events };
}

/** The run folder without its journal (a run whose process has not written an event yet). */
export async function writeFixtureFiles(dir: string, plan: FixturePlan): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (const [path, text] of plan.files) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  await writeFile(runPaths(dir).best, plan.best);
  await writeFile(runPaths(dir).manifest, `${JSON.stringify(fixtureManifest(plan.id, dir), null, 2)}\n`);
}
