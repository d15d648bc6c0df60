#!/usr/bin/env node
/**
 * 8. Search: the pareto pool against the greedy single incumbent, as a user runs
 * them: `autoresearch run <example> --provider sim` through the built CLI, in a fresh temporary
 * project per run, on four simulated landscapes —
 *
 *   cold-email        the example as shipped (one kind of case; checks and the judge),
 *   inbox-replies     two kinds of case that want opposite lengths: a single lineage gets stuck
 *                     and a merge of specialists does better (docs/sim.md),
 *   inbox-replies-x4  the same with every case four times (ticket numbers tell the copies
 *                     apart): a test split four times as large, so less noise,
 *   inbox-quick       inbox-replies with its quick questions alone (one kind: nothing to merge).
 *
 * Every run gets the same iteration budget, a sealed test share (search.test, set in the copy
 * only) and neither patience nor a target stops it early. What is read back is the run's own
 * record: model calls from its spend events (every generator, judge, grader and mutator call
 * the ledger counted), the best's train score after each iteration (the trajectory), and the
 * final evaluation's test score. The two strategies spend different calls per iteration, so
 * they are compared at equal calls: both runs of a seed are cut at the smaller one's calls and
 * the best each had there is scored on the test split with `autoresearch eval`.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parse, stringify } from 'yaml';
import { cleanEnv, expectExit, latestRunDir, readEvents, runCli } from './lib/cli.mjs';
import { runBenchmark } from './lib/harness.mjs';
import { distModule, REPO } from './lib/paths.mjs';
import { median, pct, ratio } from './lib/stats.mjs';
import { markdownTable, textTable } from './lib/table.mjs';

const STRATEGIES = ['greedy', 'pareto'];
const TEST_SHARE = 0.25;
/** The target on the stuck landscape: pareto reaches greedy's final score with ≤ 60% of its calls. */
const TARGET_CALL_SHARE = 0.6;
const REACH_SHARE = 0.9;
/** Generations per test case when a cut is scored: the test split is small, so its noise is cut down. */
const EVAL_SAMPLES = 3;
/** A smoke run's scores mean nothing: one generation per case is enough to read one. */
const SMOKE_EVAL_SAMPLES = 1;
// The cheap landscapes (checks only) first, the one with a judge last.
const LANDSCAPES = [
  { key: 'inbox-replies', example: 'inbox-replies', label: 'inbox-replies (two kinds: stuck)', stuck: true },
  {
    key: 'inbox-replies-x4',
    example: 'inbox-replies',
    label: 'inbox-replies ×4 (96 cases: stuck)',
    stuck: true,
    widen: 4,
  },
  {
    key: 'inbox-quick',
    example: 'inbox-replies',
    label: 'inbox-quick (one kind)',
    keep: (c) => c.vars?.kind === 'quick question',
  },
  { key: 'cold-email', example: 'cold-email', label: 'cold-email (one kind)' },
];
/** Runs side by side: each is one process doing mostly CPU work. */
const PARALLEL = 2;

/**
 * Each case `times` times, the copies told apart by a ticket number in the message: the same
 * two kinds in a larger sample, so the test split holds four times the cases.
 */
function widen(cases, times) {
  return cases.flatMap((c) =>
    Array.from({ length: times }, (_, k) =>
      k === 0
        ? c
        : {
            ...c,
            id: `${c.id}-${k + 1}`,
            vars: { ...c.vars, message: `${c.vars.message} (ticket ${k + 1})` },
          },
    ),
  );
}

/** A fresh project holding a copy of the example, set for one run. */
function createRunProject(landscape, { seed, strategy, iterations }) {
  const dir = mkdtempSync(join(tmpdir(), 'ar-bench-search-'));
  const source = join(REPO, 'experiments', landscape.example);
  const target = join(dir, 'experiments', landscape.example);
  cpSync(source, target, { recursive: true });
  const file = join(target, 'experiment.yaml');
  const experiment = parse(readFileSync(file, 'utf8'));
  if (typeof experiment.rubric === 'string') {
    const rubric = resolve(target, experiment.rubric);
    mkdirSync(dirname(rubric), { recursive: true });
    cpSync(resolve(source, experiment.rubric), rubric);
  }
  if (landscape.keep || landscape.widen) {
    const casesFile = join(target, experiment.cases);
    const cases = parse(readFileSync(casesFile, 'utf8')).filter(landscape.keep ?? (() => true));
    writeFileSync(casesFile, stringify(landscape.widen ? widen(cases, landscape.widen) : cases));
  }
  experiment.search = { ...experiment.search, seed, strategy, test: TEST_SHARE };
  // The same budget for both: every iteration is run, none stops the run early.
  experiment.budget = { ...experiment.budget, iterations, patience: iterations + 1, target: 1 };
  delete experiment.budget.usd;
  writeFileSync(file, stringify(experiment));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** What a run's journal says: calls, the best's train score after each iteration, the final test score. */
function readRun(events) {
  let loopCalls = 0;
  let finalCalls = 0;
  const byRole = {};
  const trajectory = [];
  let best = null;
  let bestRef = null;
  let final = null;
  const statuses = {};
  let pareto = false;
  const merges = { tried: 0, pooled: 0 };
  for (const event of events) {
    if (event.type === 'spend') {
      // Calls the run's response cache answered reached no model and cost nothing.
      const calls = event.calls - (event.cachedCalls ?? 0);
      if (event.phase === 'final') finalCalls += calls;
      else {
        loopCalls += calls;
        byRole[event.role] = (byRole[event.role] ?? 0) + calls;
      }
    } else if (event.type === 'parent_chosen') {
      pareto = true;
    } else if (event.type === 'candidate_decided' && event.kind === 'merge') {
      merges.tried++;
      if (event.member !== null) merges.pooled++;
    } else if (event.type === 'iteration_finished') {
      statuses[event.status] = (statuses[event.status] ?? 0) + 1;
      if ((event.status === 'baseline' || event.status === 'keep') && event.train !== null) {
        best = event.train;
        bestRef = { iteration: event.iteration, candidate: event.candidate ?? 0, sha256: event.promptSha256 };
      }
      if (best !== null) trajectory.push({ iteration: event.iteration, calls: loopCalls, best, bestRef });
    } else if (event.type === 'final_evaluation') {
      final = event;
    }
  }
  return {
    loopCalls,
    byRole,
    finalCalls,
    trajectory,
    best,
    test: final?.best?.test ?? null,
    statuses,
    pareto,
    merges,
  };
}

/** Calls until the best's train score first reached `score` (null: never). */
function callsToReach(trajectory, score) {
  return trajectory.find((point) => point.best >= score - 1e-12)?.calls ?? null;
}

/** One run in a fresh project, which is kept (with its record) until `remove`. */
async function runOne(landscape, setting) {
  const project = createRunProject(landscape, setting);
  const result = await runCli(['run', landscape.example, '--provider', 'sim'], {
    cwd: project.dir,
    env: cleanEnv(),
  });
  expectExit(result, [0], `run ${landscape.key} ${setting.strategy} seed ${setting.seed}`);
  const runDir = latestRunDir(project.dir);
  return { project, runDir, run: { ...readRun(readEvents(runDir)), wallMs: result.wallMs } };
}

/** The last point of a run's trajectory within `budget` loop calls (the baseline's when none is). */
function pointWithin(trajectory, budget) {
  return trajectory.filter((point) => point.calls <= budget).at(-1) ?? trajectory[0];
}

/**
 * The sealed test score of the prompt that was the run's best at `point`: its file from the
 * run's record written into the experiment, then `autoresearch eval --split test` — the same
 * path for both strategies and for every cut.
 */
async function testScoreAt(landscape, { project, runDir }, point, samples) {
  const { iteration, candidate, sha256 } = point.bestRef;
  const iterationDir = join(runDir, 'iterations', String(iteration).padStart(4, '0'));
  const text = readFileSync(join(iterationDir, 'candidates', String(candidate), 'prompt.md'), 'utf8');
  if (sha256 !== null && (await import(distModule('prompt-hash.js'))).hashPrompt(text) !== sha256)
    throw new Error(
      `${runDir}: iteration ${iteration} candidate ${candidate}'s prompt.md is not the prompt it journaled`,
    );
  const experimentDir = join(project.dir, 'experiments', landscape.example);
  const promptFile = parse(readFileSync(join(experimentDir, 'experiment.yaml'), 'utf8')).prompt;
  if (typeof promptFile !== 'string')
    throw new Error(`${landscape.example}: the bench expects a one-file prompt`);
  writeFileSync(join(experimentDir, promptFile), text);
  const result = await runCli(
    [
      'eval',
      landscape.example,
      '--provider',
      'sim',
      '--split',
      'test',
      '--samples',
      String(samples),
      '--json',
    ],
    {
      cwd: project.dir,
      env: cleanEnv(),
    },
  );
  expectExit(result, [0, 1], `eval ${landscape.key} at iteration ${point.iteration}`);
  return JSON.parse(result.stdout).splits.test.total;
}

/**
 * Both strategies on one seed, then each cut at the same call budget — the smaller of the two
 * runs' loop calls — and the best each had at that point scored on the test split.
 */
async function runSeed(landscape, seed, iterations, samples) {
  const runs = {};
  try {
    for (const strategy of STRATEGIES) {
      runs[strategy] = await runOne(landscape, { seed, strategy, iterations });
      const { run } = runs[strategy];
      // Progress, one line per run, so a long benchmark shows where it is.
      console.log(
        `  ${landscape.key} ${strategy} seed ${seed}: best train ${score(run.best)}, test ${score(run.test)}, ` +
          `${run.loopCalls} calls, ${(run.wallMs / 1000).toFixed(0)} s`,
      );
    }
    const budget = Math.min(...STRATEGIES.map((strategy) => runs[strategy].run.loopCalls));
    const bySeed = { seed, budget };
    for (const strategy of STRATEGIES) {
      const point = pointWithin(runs[strategy].run.trajectory, budget);
      const test = await testScoreAt(landscape, runs[strategy], point, samples);
      bySeed[strategy] = {
        ...runs[strategy].run,
        atBudget: { iteration: point.iteration, calls: point.calls, train: point.best, test },
      };
    }
    console.log(
      `  ${landscape.key} seed ${seed} at ${budget} calls: ` +
        STRATEGIES.map(
          (s) => `${s} test ${score(bySeed[s].atBudget.test)} (iteration ${bySeed[s].atBudget.iteration})`,
        ).join(', '),
    );
    return bySeed;
  } finally {
    for (const { project } of Object.values(runs)) project.remove();
  }
}

/** Runs the jobs `PARALLEL` at a time, in order. */
async function runAll(jobs) {
  const results = new Array(jobs.length);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const index = next++;
      results[index] = await jobs[index]();
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, jobs.length) }, worker));
  return results;
}

function mean(values) {
  return values.reduce((a, b) => a + b, 0) / values.length;
}

function score(value) {
  return Number.isFinite(value) ? value.toFixed(3) : 'n/a';
}

/** "0.712 ± 0.034": the mean and the half-width of its 95% Student-t interval. */
function withInterval(interval) {
  if (interval.n === 0) return 'n/a';
  if (interval.lo === null) return score(interval.mean);
  return `${score(interval.mean)} ± ${(interval.hi - interval.mean).toFixed(3)}`;
}

function signedInterval(interval) {
  if (interval.lo === null) return score(interval.mean);
  const sign = (v) => (v >= 0 ? `+${v.toFixed(3)}` : v.toFixed(3));
  return `${sign(interval.mean)} [${sign(interval.lo)}, ${sign(interval.hi)}]`;
}

/** The median, infinities kept (lib/stats.mjs's median drops them). */
function medianOf(values) {
  const sorted = [...values].sort((a, b) => (a === b ? 0 : a - b));
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** A calls ratio; infinite when pareto did not reach greedy's score in most seeds. */
function shareText(share) {
  return Number.isFinite(share) ? ratio(share) : 'not reached (most seeds)';
}

/** Median calls over the seeds that got there, and how many did. */
function reachCell(values) {
  const reached = values.filter((v) => v !== null);
  return `${reached.length > 0 ? Math.round(median(reached)) : 'n/a'} (${reached.length}/${values.length})`;
}

function sumCounts(counts) {
  const total = {};
  for (const count of counts)
    for (const [key, n] of Object.entries(count)) total[key] = (total[key] ?? 0) + n;
  return total;
}

/** "keep 23 / 30, pooled 0 / 25, …": every iteration status either strategy reached, summed over the seeds. */
function outcomesText({ greedy, pareto }) {
  const statuses = [...new Set([...Object.keys(greedy), ...Object.keys(pareto)])].filter(
    (s) => s !== 'baseline',
  );
  return statuses.map((status) => `${status} ${greedy[status] ?? 0} / ${pareto[status] ?? 0}`).join(', ');
}

/** The figures of one landscape from its runs, paired by seed. */
function summarise(landscape, bySeed, interval) {
  const greedy = bySeed.map((s) => s.greedy);
  const pareto = bySeed.map((s) => s.pareto);
  const tests = (runs) => runs.map((r) => r.test).filter((t) => t !== null);
  const testDiffs = bySeed
    .filter((s) => s.greedy.test !== null && s.pareto.test !== null)
    .map((s) => s.pareto.test - s.greedy.test);
  const atBudget = (runs) => runs.map((r) => r.atBudget.test).filter((t) => t !== null);
  const budgetDiffs = bySeed
    .filter((s) => s.greedy.atBudget.test !== null && s.pareto.atBudget.test !== null)
    .map((s) => s.pareto.atBudget.test - s.greedy.atBudget.test);
  const reach = { greedy: [], pareto: [] };
  const shares = [];
  for (const { greedy: g, pareto: p } of bySeed) {
    const goal = REACH_SHARE * Math.max(g.best ?? 0, p.best ?? 0);
    reach.greedy.push(callsToReach(g.trajectory, goal));
    reach.pareto.push(callsToReach(p.trajectory, goal));
    const needed = g.best === null ? null : callsToReach(p.trajectory, g.best);
    shares.push(needed === null ? null : needed / g.loopCalls);
  }
  return {
    landscape,
    seeds: bySeed.length,
    pareto: pareto.every((r) => r.pareto),
    calls: { greedy: mean(greedy.map((r) => r.loopCalls)), pareto: mean(pareto.map((r) => r.loopCalls)) },
    roles: Object.fromEntries(
      [...new Set([...greedy, ...pareto].flatMap((r) => Object.keys(r.byRole)))].map((role) => [
        role,
        {
          greedy: mean(greedy.map((r) => r.byRole[role] ?? 0)),
          pareto: mean(pareto.map((r) => r.byRole[role] ?? 0)),
        },
      ]),
    ),
    test: { greedy: interval(tests(greedy)), pareto: interval(tests(pareto)) },
    testDiff: interval(testDiffs),
    budget: mean(bySeed.map((s) => s.budget)),
    budgetUsed: {
      greedy: mean(greedy.map((r) => r.atBudget.calls)),
      pareto: mean(pareto.map((r) => r.atBudget.calls)),
    },
    budgetIterations: {
      greedy: mean(greedy.map((r) => r.atBudget.iteration)),
      pareto: mean(pareto.map((r) => r.atBudget.iteration)),
    },
    budgetTest: { greedy: interval(atBudget(greedy)), pareto: interval(atBudget(pareto)) },
    budgetTrain: {
      greedy: mean(greedy.map((r) => r.atBudget.train)),
      pareto: mean(pareto.map((r) => r.atBudget.train)),
    },
    budgetDiff: interval(budgetDiffs),
    reach,
    shares,
    // A seed where pareto never reached greedy's score counts as above every ratio.
    shareMedian: medianOf(shares.map((share) => share ?? Number.POSITIVE_INFINITY)),
    shareMet: shares.filter((s) => s !== null && s <= TARGET_CALL_SHARE).length,
    merges: {
      tried: pareto.reduce((n, r) => n + r.merges.tried, 0),
      pooled: pareto.reduce((n, r) => n + r.merges.pooled, 0),
    },
    outcomes: {
      greedy: sumCounts(greedy.map((r) => r.statuses)),
      pareto: sumCounts(pareto.map((r) => r.statuses)),
    },
    wallMs: [...greedy, ...pareto].reduce((n, r) => n + r.wallMs, 0),
  };
}

await runBenchmark(
  { key: 'search', script: 'bench/search.mjs', title: '8. Search: pareto vs greedy' },
  async ({ smoke }) => {
    const { pairedInterval } = await import(distModule('loop/paired.js'));
    const interval = (values) => pairedInterval(values, 0.975);
    const seeds = smoke ? 1 : 10;
    const iterations = smoke ? 1 : 20;
    const samples = smoke ? SMOKE_EVAL_SAMPLES : EVAL_SAMPLES;
    const jobs = LANDSCAPES.flatMap((landscape) =>
      Array.from({ length: seeds }, (_, i) => async () => ({
        landscape: landscape.key,
        bySeed: await runSeed(landscape, i + 1, iterations, samples),
      })),
    );
    const results = await runAll(jobs);
    const summaries = LANDSCAPES.map((landscape) =>
      summarise(
        landscape,
        results.filter((r) => r.landscape === landscape.key).map((r) => r.bySeed),
        interval,
      ),
    );

    const header = [
      'landscape',
      `loop calls in ${iterations} iterations (greedy / pareto)`,
      'equal budget: calls (mean) · iterations reached (greedy / pareto)',
      'test at the budget, greedy',
      'test at the budget, pareto',
      'pareto − greedy at the budget (test, 95% CI)',
      'best train at the budget (greedy / pareto)',
      `pareto − greedy after ${iterations} iterations each (test, 95% CI)`,
      `calls to ${pct(REACH_SHARE)} of the best either found (greedy / pareto)`,
      "pareto's calls to greedy's final score ÷ greedy's calls (median)",
      'merges pooled / tried',
    ];
    const rows = summaries.map((s) => [
      s.landscape.label,
      `${Math.round(s.calls.greedy)} / ${Math.round(s.calls.pareto)}`,
      `${Math.round(s.budget)} · ${s.budgetIterations.greedy.toFixed(1)} / ${s.budgetIterations.pareto.toFixed(1)}`,
      withInterval(s.budgetTest.greedy),
      withInterval(s.budgetTest.pareto),
      signedInterval(s.budgetDiff),
      `${score(s.budgetTrain.greedy)} / ${score(s.budgetTrain.pareto)}`,
      signedInterval(s.testDiff),
      `${reachCell(s.reach.greedy)} / ${reachCell(s.reach.pareto)}`,
      `${shareText(s.shareMedian)} (${s.shareMet}/${s.seeds} ≤ ${TARGET_CALL_SHARE})`,
      `${s.merges.pooled} / ${s.merges.tried}`,
    ]);
    const stuck = summaries.filter((s) => s.landscape.stuck);
    const others = summaries.filter((s) => !s.landscape.stuck);
    const notPareto = summaries.filter((s) => !s.pareto).map((s) => s.landscape.key);
    const findings = [];
    if (notPareto.length > 0)
      findings.push(
        `NOT A COMPARISON: the runs set to \`search.strategy: pareto\` journaled no parent choice on ${notPareto.join(', ')}: ` +
          'this build does not run the pareto loop, so both columns measure the greedy loop.',
      );
    findings.push(
      ...stuck.map(
        (s) =>
          `Stuck landscape (${s.landscape.key}): pareto reached greedy's final best train score with a median ` +
          `${shareText(s.shareMedian)} of greedy's calls (${s.shareMet} of ${s.seeds} seeds at ≤ ${TARGET_CALL_SHARE}); ` +
          `target ≤ ${TARGET_CALL_SHARE}: ${s.shareMedian <= TARGET_CALL_SHARE ? 'met' : 'MISSED'}. At equal calls, ` +
          `pareto − greedy on the test split: ${signedInterval(s.budgetDiff)}.`,
      ),
      ...others.map(
        (s) =>
          `${s.landscape.key}: pareto − greedy on the test split at equal calls ${signedInterval(s.budgetDiff)}; never ` +
          `worse beyond noise (the interval reaches 0 or above): ${s.budgetDiff.hi === null || s.budgetDiff.hi >= 0 ? 'met' : 'MISSED'}.`,
      ),
    );
    const method = [
      `${seeds} seed${seeds === 1 ? '' : 's'} per landscape and strategy (search.seed 1–${seeds}; the same seed gives both ` +
        'strategies the same train/holdout/test split), each run `autoresearch run <example> --provider sim` in a fresh ' +
        `temporary project, ${iterations} iterations, search.test ${TEST_SHARE}, patience and target off, ` +
        `the examples' other settings as shipped (candidates 1, merge_every 5, paired acceptance); ${PARALLEL} runs at a time.`,
      "Calls: every model call of the baseline and the iterations from the run's spend events (the ledger: generator, " +
        "judge, grader and mutator; the response cache's hits left out, as they reach no model), the final evaluation apart. Equal budget: per seed, the " +
        "smaller of the two runs' loop calls; each run is cut after its last iteration that ends within it, and the " +
        "prompt that was its best there (read from the run's record, checked against its journaled hash) is scored on " +
        `the sealed test cases by \`autoresearch eval --split test --samples ${samples}\` (the mean of ${samples} ` +
        'generations per case): mean over seeds ± the 95% Student-t half-width, the ' +
        `difference paired by seed. "After ${iterations} iterations each" is the same difference from the runs' own final ` +
        'evaluations, whatever calls each spent. ' +
        `Trajectory: the best's train score after each iteration; "calls to ${pct(REACH_SHARE)}" counts until it first ` +
        `reaches ${REACH_SHARE} × the higher of the two runs' final best train score on that seed (median over the seeds ` +
        'that got there, and how many did). "pareto\'s calls to greedy\'s final score" is, per seed, the calls pareto ' +
        "needed to reach greedy's final best train score divided by greedy's calls for the whole run.",
    ];
    findings.push(
      `Calls per run by role (greedy / pareto, mean): ${summaries
        .map(
          (s) =>
            `${s.landscape.key}: ${Object.entries(s.roles)
              .map(([role, c]) => `${role} ${Math.round(c.greedy)} / ${Math.round(c.pareto)}`)
              .join(', ')}`,
        )
        .join('; ')}.`,
      `Iteration outcomes over all seeds (greedy / pareto): ${summaries
        .map((s) => `${s.landscape.key}: ${outcomesText(s.outcomes)}`)
        .join(
          '; ',
        )}. A screened-out proposal costs its minibatch and a duplicate only the mutator's calls; one that passes the ` +
        'screen costs the rest of the train cases and the holdout, and an unclear first look a retest of both sides.',
    );
    const wall = summaries.map((s) => `${s.landscape.key} ${(s.wallMs / 1000).toFixed(0)} s`).join(', ');
    const text = [
      ...method,
      '',
      textTable(header, rows),
      '',
      ...findings,
      `Run time (all runs, summed): ${wall}.`,
    ].join('\n');
    const markdown = [
      ...method.flatMap((m) => [m, '']),
      markdownTable(header, rows),
      '',
      ...findings.flatMap((f) => [f, '']),
      `Run time of the runs, summed: ${wall}.`,
    ].join('\n');
    return { text, markdown };
  },
);
