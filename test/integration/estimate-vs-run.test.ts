/**
 * The call estimate (src/experiment/count-calls.ts, counted from the loop's own iteration plan in
 * src/experiment/iteration-plan.ts) against the calls a real `--provider sim` run of the built CLI
 * makes, read from the spend events of its journal, for a greedy and a pareto experiment. The
 * estimate claims: the baseline exactly; every iteration's generator, judge and grader calls at
 * most `perIteration` (one mutator reply per proposal, re-asks up to MUTATOR_ATTEMPTS beyond it);
 * the final check at most two evaluations, exactly two when the best moved. The fixtures run
 * iterations that reach the bound (a retest of both sides; pareto: two at once), so it is tight.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CallCounts, countCalls, type RoleCounts, times } from '../../src/experiment/count-calls.js';
import { loadExperiment } from '../../src/experiment/load-experiment.js';
import { ROLES } from '../../src/experiment/roles.js';
import { MUTATOR_ATTEMPTS } from '../../src/loop/propose.js';
import { readJournal } from '../../src/run/journal.js';
import { cleanEnv, REPO_ROOT, requireBuiltCli, runBuiltCli, runFolders } from '../helpers/built-cli.js';
import { createTempRepo, readTreeBytes, type TempRepo } from '../helpers/temp-repo.js';

const ITERATIONS = 4;
const repos: TempRepo[] = [];

beforeAll(() => requireBuiltCli());
afterAll(async () => {
  await Promise.all(repos.map((repo) => repo.cleanup()));
});

const zero = (): RoleCounts => ({ generator: 0, mutator: 0, judge: 0, grader: 0 });

/** The run's model calls by role: per iteration, and the final check apart. */
async function runCalls(fixture: string) {
  const source = path.join(REPO_ROOT, 'test', 'fixtures', 'kill', fixture);
  const files: Record<string, string> = {};
  for (const [file, bytes] of await readTreeBytes(source))
    files[`experiments/${fixture}/${file}`] = bytes.toString('utf8');
  const repo = await createTempRepo({ files });
  repos.push(repo);
  const result = await runBuiltCli(
    ['run', fixture, '--provider', 'sim', '--iterations', String(ITERATIONS)],
    {
      cwd: repo.dir,
      env: cleanEnv(repo.env),
    },
  );
  expect(result.code, result.stderr).toBe(0);
  const runs = path.join(repo.dir, 'runs');
  const [id] = runFolders(runs);
  const { events } = await readJournal(path.join(runs, id as string));
  const iterations = new Map<number, RoleCounts>();
  const final = zero();
  for (const e of events) {
    if (e.type !== 'spend') continue;
    const counts = e.phase === 'final' ? final : (iterations.get(e.iteration ?? -1) ?? zero());
    if (e.phase !== 'final') iterations.set(e.iteration ?? -1, counts);
    counts[e.role] += e.calls;
  }
  const moved = events.some((e) => e.type === 'iteration_finished' && e.status === 'keep');
  return { iterations, final, moved };
}

async function estimateOf(fixture: string): Promise<CallCounts> {
  const dir = path.join(REPO_ROOT, 'test', 'fixtures', 'kill', fixture);
  const { experiment } = await loadExperiment(dir, { cwd: dir, env: {} });
  return countCalls({
    ...experiment,
    config: { ...experiment.config, budget: { ...experiment.config.budget, iterations: ITERATIONS } },
  });
}

describe.each([
  ['release-note-paired', 'greedy'],
  ['release-note-pareto', 'pareto'],
])('the estimate of %s against its sim run', (fixture, strategy) => {
  it(`bounds every iteration's calls and matches the baseline and final check (${strategy})`, async () => {
    const estimate = await estimateOf(fixture);
    expect(estimate.strategy).toBe(strategy);
    const { iterations, final, moved } = await runCalls(fixture);

    // The baseline: its evaluations and the anchors' first reading, exactly.
    const baseline = times(estimate.perEvaluation, estimate.baselineEvaluations);
    for (const role of ROLES) baseline[role] += estimate.anchors?.perReading[role] ?? 0;
    expect(iterations.get(0)).toEqual(baseline);

    expect([...iterations.keys()].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4]);
    for (let iteration = 1; iteration <= ITERATIONS; iteration++) {
      const actual = iterations.get(iteration) ?? zero();
      for (const role of ['generator', 'judge', 'grader'] as const)
        expect(actual[role], `iteration ${iteration}, ${role}`).toBeLessThanOrEqual(
          estimate.perIteration[role],
        );
      expect(actual.mutator).toBeGreaterThanOrEqual(1);
      expect(actual.mutator).toBeLessThanOrEqual(estimate.perIteration.mutator * MUTATOR_ATTEMPTS);
    }
    // The bound is reached: an iteration with every proposal past its screen and every retest run.
    const most = Math.max(...[...iterations].filter(([i]) => i > 0).map(([, c]) => c.generator));
    expect(most).toBe(estimate.perIteration.generator);

    // No drift check within 4 iterations (anchor_every 5).
    expect(estimate.schedule.driftChecks).toBe(0);
    expect(moved).toBe(true);
    expect(final).toEqual(times(estimate.perFinalEvaluation, estimate.finalEvaluations));
  }, 180_000);
});
