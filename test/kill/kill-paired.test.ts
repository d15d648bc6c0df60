/**
 * The kill test for paired acceptance (issue 18, SPEC 13): the release-note experiment with
 * `acceptance: paired`, a minibatch smaller than its train cases (every proposal is screened
 * first; the rest is evaluated into the same folder only when the screen passes) and one
 * retest of both sides. Real runs of the built CLI (`--provider sim`) are SIGKILLed at the
 * moments that are new with it — in the screen stage and in the rest stage of a staged
 * evaluation, at each `retesting`, in the candidate's retest, and just before and after the
 * decision of a screened-out iteration and of one that took two looks — resumed, killed
 * again, and resumed to completion.
 *
 * Each kill is named by the event it cuts in the uninterrupted reference run's journal
 * (support/journal-targets.ts) and checked to have landed there. After each chain: the
 * invariants of every kill test (support/invariants.ts), no finished iteration redone, and
 * the run equal to the reference: its decisions with their intervals and screens, every
 * file of its iteration folders byte for byte, and the same set of model calls in its cache
 * (the sim is deterministic: a resume that asked anything the reference did not would add one).
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import pLimit from 'p-limit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../src/run/events.js';
import { readTreeBytes } from '../helpers/temp-repo.js';
import { type CliCopy, describeResult, runCli, snapshotCli } from './support/cli.js';
import {
  checkFinishedRun,
  checkKilledRun,
  decisionsOf,
  readRunRecord,
  redoneIterations,
} from './support/invariants.js';
import { formatTarget, type JournalTarget, missedTarget, occurrenceFrom } from './support/journal-targets.js';
import { createProject } from './support/project.js';

const FIXTURE = 'release-note-paired';
const ITERATIONS = 4;
const RUN_ARGS = ['run', FIXTURE, '--provider', 'sim', '--iterations', String(ITERATIONS)];

// AUTORESEARCH_KILL_TRACE=1 prints each process as it ends: for finding a slow or failing chain.
const trace = (text: string) => {
  if (process.env['AUTORESEARCH_KILL_TRACE'] === '1')
    process.stderr.write(`${new Date().toISOString()} ${text}\n`);
};

/** Iterations of the reference run by the part of the paired loop they exercise. */
interface Roles {
  /** The first whose proposal passed its screen: a staged evaluation, screen then rest. */
  staged: number;
  /** The first decided on two looks (its first look asked for a retest of both sides). */
  twoLooks: number;
  /** Every iteration that retested, in order. */
  retests: number[];
  /** The first screened out on its minibatch. */
  screenedOut: number;
}

interface Reference {
  events: RunEvent[];
  roles: Roles;
  decisions: ReturnType<typeof decisionsOf>;
  files: Map<string, string>;
  calls: string[];
}

let cli: CliCopy;
let reference: Reference;

/**
 * sha256 of every file under the run's iterations/, by path. A kill in the middle of an
 * atomic write leaves its `*.tmp` beside the target (src/atomic-file.ts): litter no reader
 * takes for a record file, so it is not compared.
 */
async function iterationFiles(runDir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const [path, bytes] of await readTreeBytes(join(runDir, 'iterations'))) {
    if (!path.endsWith('.tmp')) files.set(path, createHash('sha256').update(bytes).digest('hex'));
  }
  return files;
}

/** The cache's entries (one per distinct model call, named by its key). */
async function cachedCalls(runDir: string): Promise<string[]> {
  return [...(await readTreeBytes(join(runDir, 'cache'))).keys()].filter((path) => path.endsWith('.json'));
}

function rolesOf(events: readonly RunEvent[]): Partial<Roles> {
  const ends = events.flatMap((e) =>
    e.type === 'iteration_finished' && e.iteration > 0 && e.status !== 'interrupted' ? [e] : [],
  );
  const retests = events.flatMap((e) => (e.type === 'phase' && e.phase === 'retesting' ? [e.iteration] : []));
  return {
    ...optional('staged', ends.find((e) => e.screen?.passed === true)?.iteration),
    ...optional('twoLooks', ends.find((e) => e.paired?.looks === 2)?.iteration),
    retests,
    ...optional('screenedOut', ends.find((e) => e.status === 'screened_out')?.iteration),
  };
}

function optional<K extends string>(key: K, value: number | undefined): Partial<Record<K, number>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, number>);
}

beforeAll(async () => {
  cli = await snapshotCli();
  const project = await createProject({ fixture: FIXTURE });
  try {
    const result = await runCli(cli.main, RUN_ARGS, { cwd: project.dir, env: project.env });
    expect(result.exitCode, describeResult(result)).toBe(0);
    const run = await project.onlyRun();
    expect(await checkFinishedRun(cli.main, project, run.dir)).toEqual([]);
    const { state, events } = await readRunRecord(run.dir);
    trace(`reference: ${state.iterations.map((it) => `${it.status}/${it.paired?.looks ?? '-'}`).join(' ')}`);
    // The chains below cut these iterations: the fixture (seed, cases, budget) is tuned so an
    // uninterrupted run has each of them. If the sim changes, re-tune it rather than drop one.
    const roles = rolesOf(events);
    expect(roles, `reference statuses: ${state.iterations.map((it) => it.status).join(' ')}`).toEqual({
      staged: 1,
      twoLooks: 2,
      retests: [2, 3],
      screenedOut: 4,
    });
    expect(state.iterations.find((it) => it.iteration === 2)?.status).toBe('inconclusive');
    // What the chains' nth phases mean: iteration 1 journals its screen stage's phases, then its
    // rest's (a keep on one look); iteration 2's third judging is its candidate's retest.
    const phases = (iteration: number, phase: string) =>
      events.filter((e) => e.type === 'phase' && e.iteration === iteration && e.phase === phase).length;
    expect([phases(1, 'generating'), phases(1, 'judging'), phases(2, 'judging')]).toEqual([2, 2, 3]);
    reference = {
      events,
      roles: roles as Roles,
      decisions: decisionsOf(state),
      files: await iterationFiles(run.dir),
      calls: await cachedCalls(run.dir),
    };
  } finally {
    await project.cleanup();
  }
}, 180_000);

afterAll(async () => {
  await cli?.cleanup();
});

const at = (point: string, iteration: number, nth: number, what: string): JournalTarget => ({
  point,
  iteration,
  nth,
  what,
});

/**
 * Each chain's kills, in run order; each after the first cuts the resume of the run the one
 * before killed. Together: both stages of a staged evaluation (`generating` and `judging`,
 * the 1st in the screen, the 2nd in the rest), every `retesting`, the candidate's retest, and
 * `evaluated`/`decided`/`finished` of a screened-out and of a two-look iteration.
 */
function chains(roles: Roles): JournalTarget[][] {
  const { staged, twoLooks, retests, screenedOut } = roles;
  const [firstRetest, secondRetest] = retests as [number, number];
  return [
    [
      at('generating', staged, 1, 'the screen stage begins'),
      at('judging', staged, 2, 'the judge of the rest stage'),
      at('retesting', firstRetest, 1, 'a first look asked for a retest'),
      at('evaluated', twoLooks, 1, 'both looks done, nothing decided'),
      at('finished', screenedOut, 1, 'screened out, results.tsv not rewritten'),
    ],
    [
      at('judging', staged, 1, 'the judge of the screen stage'),
      at('generating', staged, 2, 'the rest stage begins'),
      at('decided', twoLooks, 1, 'inconclusive journaled'),
      at('retesting', secondRetest, 1, 'the next retest'),
      at('evaluated', screenedOut, 1, 'the screen failed, nothing decided'),
    ],
    [
      at('retesting', firstRetest, 1, 'a first look asked for a retest'),
      at('judging', twoLooks, 3, "the judge of the candidate's retest"),
      at('finished', twoLooks, 1, 'inconclusive journaled, results.tsv not rewritten'),
      at('decided', screenedOut, 1, 'screened out journaled'),
    ],
  ];
}

async function runChain(chain: number, targets: readonly JournalTarget[]): Promise<string[]> {
  const project = await createProject({ fixture: FIXTURE });
  const fired: JournalTarget[] = [];
  const problems: string[] = [];
  const say = (text: string) =>
    problems.push(`chain ${chain} [${fired.map(formatTarget).join(' → ')}]: ${text}`);
  try {
    let args = RUN_ARGS;
    let from = 0;
    for (const target of targets) {
      const occurrence = occurrenceFrom(reference.events, target, from);
      const killAt = `${target.point}:${occurrence}`;
      const result = await runCli(cli.main, args, { cwd: project.dir, env: project.env, killAt });
      trace(`chain ${chain} ${args[0]} from ${from}, kill at ${killAt}: ${result.signal ?? result.exitCode}`);
      if (result.signal !== 'SIGKILL') {
        say(`${formatTarget(target)} (${killAt}) was never reached: ${describeResult(result)}`);
        return problems;
      }
      fired.push(target);
      const run = await project.onlyRun();
      for (const problem of await checkKilledRun(run.dir)) say(`after the kill: ${problem}`);
      const { events, state } = await readRunRecord(run.dir);
      const missed = missedTarget(events, target);
      if (missed) say(`the kill missed ${formatTarget(target)}: ${missed}`);
      from = state.nextIteration;
      args = ['resume', run.id];
    }
    const run = await project.onlyRun();
    const result = await runCli(cli.main, args, { cwd: project.dir, env: project.env });
    trace(`chain ${chain} final resume: ${result.signal ?? result.exitCode}`);
    if (result.exitCode !== 0) {
      say(`the last resume failed: ${describeResult(result)}`);
      return problems;
    }
    for (const problem of await checkFinishedRun(cli.main, project, run.dir)) say(problem);
    for (const problem of await differencesFromReference(run.dir)) say(problem);
    return problems;
  } finally {
    await project.cleanup();
  }
}

/** How a finished run differs from the uninterrupted reference: work redone, decisions, files, calls. */
async function differencesFromReference(runDir: string): Promise<string[]> {
  const problems: string[] = [];
  const { state, events } = await readRunRecord(runDir);
  problems.push(...redoneIterations(events));
  const decisions = decisionsOf(state);
  const expected = reference.decisions;
  const count = Math.max(decisions.iterations.length, expected.iterations.length);
  for (let index = 0; index < count; index++) {
    const got = JSON.stringify(decisions.iterations[index]);
    const want = JSON.stringify(expected.iterations[index]);
    if (got !== want)
      problems.push(
        `iteration ${index} differs from the uninterrupted run:\n  got      ${got}\n  expected ${want}`,
      );
  }
  const final = JSON.stringify(decisions.finalEvaluation);
  if (final !== JSON.stringify(expected.finalEvaluation)) {
    problems.push(
      `final check ${final}, the uninterrupted run's ${JSON.stringify(expected.finalEvaluation)}`,
    );
  }
  const files = await iterationFiles(runDir);
  for (const path of new Set([...files.keys(), ...reference.files.keys()])) {
    const got = files.get(path);
    const want = reference.files.get(path);
    if (got === want) continue;
    const how =
      got === undefined ? 'missing' : want === undefined ? 'not in the uninterrupted run' : 'differs';
    problems.push(`iterations/${path} ${how}`);
  }
  const calls = new Set(await cachedCalls(runDir));
  const extra = [...calls].filter((key) => !reference.calls.includes(key));
  const missing = reference.calls.filter((key) => !calls.has(key));
  if (extra.length > 0 || missing.length > 0) {
    problems.push(
      `the cache has ${extra.length} call(s) the uninterrupted run never made and lacks ${missing.length}`,
    );
  }
  return problems;
}

describe('paired acceptance: SIGKILL at seeded points, then resume', () => {
  it('cuts screening, both stages, retests and paired decisions, and resumes to the uninterrupted decisions', async () => {
    const plan = chains(reference.roles);
    const limit = pLimit(2);
    const problems = await Promise.all(plan.map((targets, chain) => limit(() => runChain(chain, targets))));
    expect(problems.flat()).toEqual([]);
  }, 600_000);
});
