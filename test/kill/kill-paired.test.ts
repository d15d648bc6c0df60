/**
 * The kill test for paired acceptance (docs/design/paired-acceptance.md): the release-note
 * experiment with `acceptance: paired`, a minibatch smaller than its train cases (every proposal is
 * screened first; the rest is evaluated into the same folder only when the screen passes) and one
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
import pLimit from 'p-limit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../src/run/events.js';
import { at, type Reference, referenceOf, runChain, trace } from './support/chains.js';
import { type CliCopy, describeResult, runCli, snapshotCli } from './support/cli.js';
import { checkFinishedRun, readRunRecord } from './support/invariants.js';
import type { JournalTarget } from './support/journal-targets.js';
import { createProject } from './support/project.js';

const FIXTURE = 'release-note-paired';
const ITERATIONS = 4;
const RUN_ARGS = ['run', FIXTURE, '--provider', 'sim', '--iterations', String(ITERATIONS)];

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

let cli: CliCopy;
let reference: Reference;
let roles: Roles;

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
    const found = rolesOf(events);
    expect(found, `reference statuses: ${state.iterations.map((it) => it.status).join(' ')}`).toEqual({
      staged: 1,
      screenedOut: 2,
      twoLooks: 3,
      retests: [3, 4],
    });
    expect(state.iterations.find((it) => it.iteration === 3)?.status).toBe('inconclusive');
    // What the chains' nth phases mean: iteration 1 journals its screen stage's phases, then its
    // rest's (a keep on one look); iteration 3's third judging is its candidate's retest.
    const phases = (iteration: number, phase: string) =>
      events.filter((e) => e.type === 'phase' && e.iteration === iteration && e.phase === phase).length;
    expect([phases(1, 'generating'), phases(1, 'judging'), phases(3, 'judging')]).toEqual([2, 2, 3]);
    roles = found as Roles;
    reference = await referenceOf(run.dir);
  } finally {
    await project.cleanup();
  }
}, 180_000);

afterAll(async () => {
  await cli?.cleanup();
});

/**
 * Each chain's kills, in run order; each after the first cuts the resume of the run the one
 * before killed. Together: both stages of a staged evaluation (`generating` and `judging`,
 * the 1st in the screen, the 2nd in the rest), every `retesting`, the candidate's retest, and
 * `evaluated`/`decided`/`finished` of a screened-out and of a two-look iteration. Two chains,
 * side by side: a kill that leaves its iteration open (a stage, a retest, `evaluated`) is
 * followed by a later point of the same iteration, redone by the resume; `finished` and
 * `decided` close theirs, so each is cut in the other chain.
 */
function chains(roles: Roles): JournalTarget[][] {
  const { staged, twoLooks, retests, screenedOut } = roles;
  const [firstRetest, secondRetest] = retests as [number, number];
  // In run order within each chain: staged (1), screened out (2), two looks (3), the next retest (4).
  return [
    [
      at('generating', staged, 1, 'the screen stage begins'),
      at('judging', staged, 2, 'the judge of the rest stage'),
      at('finished', screenedOut, 1, 'screened out, results.tsv not rewritten'),
      at('retesting', firstRetest, 1, 'a first look asked for a retest'),
      at('judging', twoLooks, 3, "the judge of the candidate's retest"),
      at('evaluated', twoLooks, 1, 'both looks done, nothing decided'),
      at('finished', twoLooks, 1, 'inconclusive journaled, results.tsv not rewritten'),
    ],
    [
      at('judging', staged, 1, 'the judge of the screen stage'),
      at('generating', staged, 2, 'the rest stage begins'),
      at('evaluated', screenedOut, 1, 'the screen failed, nothing decided'),
      at('decided', screenedOut, 1, 'screened out journaled'),
      at('decided', twoLooks, 1, 'inconclusive journaled'),
      at('retesting', secondRetest, 1, 'the next retest'),
    ],
  ];
}

describe('paired acceptance: SIGKILL at seeded points, then resume', () => {
  it('cuts screening, both stages, retests and paired decisions, and resumes to the uninterrupted decisions', async () => {
    const plan = chains(roles);
    const limit = pLimit(2);
    const input = { main: cli.main, fixture: FIXTURE, args: RUN_ARGS, reference };
    const problems = await Promise.all(
      plan.map((targets, chain) => limit(() => runChain(input, chain, targets))),
    );
    expect(problems.flat()).toEqual([]);
  }, 600_000);
});
