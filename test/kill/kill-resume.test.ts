/**
 * The kill test: real runs of the built CLI (`--provider sim`, a small experiment
 * with checks, a judge, a grader and a holdout case, in a temp git repo) are SIGKILLed at
 * seeded (point, occurrence) pairs through AUTORESEARCH_TEST_KILL_AT, resumed — and killed
 * again — then resumed to completion. Each chain of kills runs in its own repository.
 *
 * After every kill: every JSON file parses and iteration numbers stay contiguous. After each
 * chain completes: no iteration left open or interrupted, one commit per keep and one keep per
 * commit, branch head = best.md = the best keep's prompt.md, results.tsv = the journal folded,
 * `runs --json` says finished — and the decisions (status, scores, prompt per iteration and
 * the final check) are exactly those of one uninterrupted reference run: the sim is
 * deterministic and every finished call comes from the run's cache.
 */
import pLimit from 'p-limit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunState } from '../../src/run/run-state.js';
import { type CliCopy, describeResult, runCli, snapshotCli } from './support/cli.js';
import { checkFinishedRun, checkKilledRun, decisionsOf, readRunRecord } from './support/invariants.js';
import {
  countPoints,
  formatKillPoint,
  type KillPoint,
  PHASE_POINTS,
  POINTS,
  pickKillPoint,
  type ReferenceShape,
} from './support/kill-plan.js';
import { createSeededRandom } from '../../src/judge/seeded-shuffle.js';
import { createProject, FIXTURE } from './support/project.js';

const SEED = 6_2026;
const ITERATIONS = 3;
// Points go round-robin, KILLS_PER_CHAIN to a chain, so four chains cut each of the 19 once; more
// chains would only cut them again, at a whole run apiece.
const CHAINS = 4;
const KILLS_PER_CHAIN = 5;
const RUN_ARGS = ['run', FIXTURE, '--provider', 'sim', '--iterations', String(ITERATIONS)];

// AUTORESEARCH_KILL_TRACE=1 prints each process as it ends: for finding a slow or failing chain.
const trace = (text: string) => {
  if (process.env['AUTORESEARCH_KILL_TRACE'] === '1')
    process.stderr.write(`${new Date().toISOString()} ${text}\n`);
};

let cli: CliCopy;
let reference: { decisions: ReturnType<typeof decisionsOf>; shape: ReferenceShape };

beforeAll(async () => {
  cli = await snapshotCli();
  const project = await createProject();
  try {
    const result = await runCli(cli.main, RUN_ARGS, { cwd: project.dir, env: project.env });
    expect(result.exitCode, describeResult(result)).toBe(0);
    const run = await project.onlyRun();
    expect(await checkFinishedRun(cli.main, project, run.dir)).toEqual([]);
    const { state, manifest } = await readRunRecord(run.dir);
    trace(`reference: ${state.iterations.map((it) => it.status).join(' ')}`);
    reference = {
      decisions: decisionsOf(state),
      shape: {
        statuses: state.iterations.filter((it) => it.iteration > 0).map((it) => it.status),
        cases: Object.keys(manifest.caseHashes).length,
      },
    };
  } finally {
    await project.cleanup();
  }
}, 180_000);

afterAll(async () => {
  await cli?.cleanup();
});

interface ChainOutcome {
  fired: KillPoint[];
  problems: string[];
}

async function runChain(chain: number): Promise<ChainOutcome> {
  const random = createSeededRandom(SEED + chain);
  const project = await createProject();
  const fired: KillPoint[] = [];
  const problems: string[] = [];
  const say = (text: string) =>
    problems.push(`chain ${chain} [${fired.map(formatKillPoint).join(' → ')}]: ${text}`);
  try {
    let state: RunState | null = null;
    let args = RUN_ARGS;
    let finished = false;
    for (let k = 0; k < KILLS_PER_CHAIN && !finished; k++) {
      // Points round-robin over all chains and kills, in run order, so every point is cut at least once.
      const preferred = chain * KILLS_PER_CHAIN + k;
      const counts = countPoints(reference.shape, state, fired.at(-1));
      // Redoing the final check costs two evaluations: cut each of its points once per chain at most.
      for (const f of fired) if (f.group === 'final') counts[f.point] = 0;
      const kill = pickKillPoint(random, counts, preferred, KILLS_PER_CHAIN - 1 - k);
      if (!kill) break;
      const result = await runCli(cli.main, args, {
        cwd: project.dir,
        env: project.env,
        killAt: formatKillPoint(kill),
      });
      trace(
        `chain ${chain} ${args[0]} kill at ${formatKillPoint(kill)}: ${result.signal ?? result.exitCode}`,
      );
      if (result.signal === 'SIGKILL') {
        fired.push(kill);
        const run = await project.onlyRun();
        for (const problem of await checkKilledRun(run.dir)) say(`after the kill: ${problem}`);
        state = (await readRunRecord(run.dir)).state;
        args = ['resume', run.id];
        continue;
      }
      if (result.exitCode !== 0) {
        say(`${args[0]} failed: ${describeResult(result)}`);
        return { fired, problems };
      }
      // The planned point was never reached: this process ran the run to its end.
      say(`kill point ${formatKillPoint(kill)} was never reached`);
      finished = true;
    }
    const run = await project.onlyRun();
    for (let attempt = 0; attempt < 3 && !finished; attempt++) {
      const result = await runCli(cli.main, ['resume', run.id], { cwd: project.dir, env: project.env });
      trace(`chain ${chain} final resume: ${result.signal ?? result.exitCode}`);
      if (result.exitCode !== 0) {
        say(`resume failed: ${describeResult(result)}`);
        continue;
      }
      finished = true;
    }
    if (!finished) return { fired, problems };
    for (const problem of await checkFinishedRun(cli.main, project, run.dir)) say(problem);
    const { state: final } = await readRunRecord(run.dir);
    const decisions = decisionsOf(final);
    if (JSON.stringify(decisions) !== JSON.stringify(reference.decisions)) {
      say(
        `decisions differ from the uninterrupted run:\n  got      ${JSON.stringify(decisions.iterations.map((d) => [d.iteration, d.status, d.train]))}` +
          `\n  expected ${JSON.stringify(reference.decisions.iterations.map((d) => [d.iteration, d.status, d.train]))}` +
          `\n  final    ${JSON.stringify(decisions.finalEvaluation)} vs ${JSON.stringify(reference.decisions.finalEvaluation)}`,
      );
    }
    return { fired, problems };
  } finally {
    await project.cleanup();
  }
}

describe('SIGKILL at seeded points, then resume', () => {
  it('keeps the record whole and the decisions unchanged over a kill at every point of every phase', async () => {
    const limit = pLimit(2);
    const outcomes = await Promise.all(
      Array.from({ length: CHAINS }, (_, chain) => limit(() => runChain(chain))),
    );
    const fired = outcomes.flatMap((o) => o.fired);
    expect(outcomes.flatMap((o) => o.problems)).toEqual([]);
    expect(fired.length).toBeGreaterThanOrEqual(POINTS.length);
    trace(`kills: ${fired.map(formatKillPoint).join(' ')}`);
    expect(new Set(fired.map((k) => k.point))).toEqual(new Set(POINTS.map((p) => p.point)));
    expect(new Set(fired.map((k) => k.group))).toEqual(new Set(Object.keys(PHASE_POINTS)));
  }, 600_000);
});
