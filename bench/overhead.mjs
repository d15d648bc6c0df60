#!/usr/bin/env node
/**
 * 2. Orchestration overhead: a `run` of 50 iterations on 20 cases with the in-process `sim`
 * provider generating and judging (no model latency at all), judge on, in a git repository.
 * The mutator is a scripted stand-in on the fake server (0 ms) that proposes a new prompt
 * every time, so every iteration evaluates a candidate (the simulated mutator runs out of
 * ideas and its duplicates skip evaluation). Runner time per case-evaluation = an
 * iteration's wall time minus its judge subprocess (its judging phase), divided by its cases,
 * median over the iterations. The judge is reported apart: its process start (spawn → first
 * model request, measured on its own) and the rest of its phase. Target: <= 2 ms per
 * case-evaluation (the judge's start is reported, not a target).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  cleanEnv,
  eventTime,
  expectExit,
  FAKE_KEY_ENV,
  latestRunDir,
  readEvents,
  runCli,
} from './lib/cli.mjs';
import { createFreshMutatorResponder } from './lib/fresh-mutator.mjs';
import { startFakeLlmServer } from '../test/helpers/fake-llm-server.js';
import { runBenchmark } from './lib/harness.mjs';
import { measureJudgeStart } from './lib/judge-start.mjs';
import { createProject, fakeServerModels, SIM_MODELS } from './lib/project.mjs';
import { markdownTable, textTable } from './lib/table.mjs';
import { median, ms, sum, verdict } from './lib/stats.mjs';

const PER_CASE_TARGET_MS = 2;
const CPU_REPORTER = pathToFileURL(join(import.meta.dirname, 'lib', 'report-cpu.mjs')).href;

/** Wall time of each iteration after the baseline: its start to the next one's (commit and records included). */
function iterationSpans(events) {
  const starts = events.filter((e) => e.type === 'iteration_started' && e.iteration > 0);
  const final = events.find((e) => e.type === 'phase' && e.phase === 'final');
  return starts.map((start, i) => {
    const next = starts[i + 1] ?? final;
    return { iteration: start.iteration, ms: next === undefined ? NaN : eventTime(next) - eventTime(start) };
  });
}

/** The judge's part of each evaluation, by iteration: its phase to the next phase of the same candidate. */
function judgingSpans(events) {
  const spans = new Map();
  events.forEach((event, i) => {
    if (event.type !== 'phase' || event.phase !== 'judging') return;
    const next = events
      .slice(i + 1)
      .find((e) => e.type === 'phase' && e.iteration === event.iteration && e.candidate === event.candidate);
    if (next)
      spans.set(event.iteration, (spans.get(event.iteration) ?? 0) + eventTime(next) - eventTime(event));
  });
  return spans;
}

/**
 * One `run` in a fresh project; with `judge`, the rubric and the built-in judge are on.
 * Returns the per-iteration figures read from its journal and the runner's CPU.
 */
async function measureRun(server, { cases, iterations, judge }) {
  const { judge: _simJudge, ...simWithoutJudge } = SIM_MODELS;
  const project = createProject({
    cases,
    rubric: judge,
    models: {
      ...(judge ? SIM_MODELS : simWithoutJudge),
      mutator: fakeServerModels(server.anthropicBaseUrl).mutator,
    },
    budget: { iterations, patience: iterations + 1 },
    git: true,
  });
  const scratch = mkdtempSync(join(tmpdir(), 'bench-cpu-'));
  try {
    const cpuFile = join(scratch, 'cpu.json');
    const result = expectExit(
      await runCli(['run', 'bench', '--iterations', String(iterations)], {
        cwd: project.dir,
        env: cleanEnv({ ...FAKE_KEY_ENV, BENCH_CPU_REPORT: cpuFile }),
        nodeArgs: ['--import', CPU_REPORTER],
      }),
      [0],
      judge ? 'the sim run' : 'the sim run without a judge',
    );
    const cpu = JSON.parse(readFileSync(cpuFile, 'utf8'));
    const runDir = latestRunDir(project.dir);
    const events = readEvents(runDir);
    const evaluations =
      events.filter((e) => e.type === 'candidate_evaluated').length +
      readdirSync(join(runDir, 'final')).length;
    const caseEvaluations = evaluations * cases;
    const finished = events.filter((e) => e.type === 'iteration_finished' && e.iteration > 0);
    if (finished.length !== iterations)
      throw new Error(`expected ${iterations} iterations, got ${finished.length}`);

    const judgingByIteration = judgingSpans(events);
    const spans = iterationSpans(events).filter((s) => !judge || judgingByIteration.has(s.iteration));
    const judgingOf = (iteration) => judgingByIteration.get(iteration) ?? 0;
    return {
      evaluations,
      wallMs: result.wallMs,
      perCase: median(spans.map((s) => (s.ms - judgingOf(s.iteration)) / cases)),
      judging: judge ? median(spans.map((s) => judgingOf(s.iteration))) : 0,
      wholeRun: (result.wallMs - sum([...judgingByIteration.values()])) / caseEvaluations,
      cpuPerCase: (cpu.userMs + cpu.systemMs) / caseEvaluations,
      statuses: finished.reduce(
        (counts, e) => counts.set(e.status, (counts.get(e.status) ?? 0) + 1),
        new Map(),
      ),
    };
  } finally {
    project.remove();
    rmSync(scratch, { recursive: true, force: true });
  }
}

await runBenchmark(
  { key: 'overhead', script: 'bench/overhead.mjs', title: '2. Orchestration overhead' },
  async ({ smoke }) => {
    const cases = smoke ? 4 : 20;
    // Two in smoke: an iteration followed by another and one followed by the final check (iterationSpans).
    const iterations = smoke ? 2 : 50;
    const server = await startFakeLlmServer({ latencyMs: 0, respond: await createFreshMutatorResponder() });
    try {
      const judgeStart = await measureJudgeStart(server, { runs: smoke ? 1 : 7 });
      // Runs with and without the judge, interleaved: on a shared machine one run alone can land in
      // a busy minute (single runs of this benchmark ranged from 3.4 to 4.7 ms with the judge).
      const repeats = smoke ? 1 : 3;
      const judgedRuns = [];
      const aloneRuns = [];
      for (let repeat = 0; repeat < repeats; repeat += 1) {
        judgedRuns.push(await measureRun(server, { cases, iterations, judge: true }));
        aloneRuns.push(await measureRun(server, { cases, iterations, judge: false }));
      }
      const medianOf = (runs) => ({
        ...runs[0],
        ...Object.fromEntries(
          ['perCase', 'judging', 'wholeRun', 'cpuPerCase', 'wallMs'].map((key) => [
            key,
            median(runs.map((r) => r[key])),
          ]),
        ),
      });
      const withJudge = medianOf(judgedRuns);
      const alone = medianOf(aloneRuns);
      const eachRun = (runs) =>
        runs.length > 1 ? ` (each run: ${runs.map((r) => ms(r.perCase)).join(', ')})` : '';
      const { perCase, judging } = withJudge;
      const judgeBeyondStart = (judging - judgeStart.warmMs) / cases;

      const header = ['figure', 'value', 'target'];
      const rows = [
        [
          'runner time per case-evaluation (median over iterations)',
          `${ms(perCase)}${eachRun(judgedRuns)}`,
          `<= ${PER_CASE_TARGET_MS} ms: ${verdict(perCase <= PER_CASE_TARGET_MS)}`,
        ],
        ['  same over the whole run (start-up, baseline, final check included)', ms(withJudge.wholeRun), ''],
        [
          '  runner CPU per case-evaluation (main process, judge proxy included)',
          ms(withJudge.cpuPerCase),
          '',
        ],
        [
          '  the same run without a judge (checks only): runner time per case-evaluation',
          `${ms(alone.perCase)}${eachRun(aloneRuns)}`,
          '',
        ],
        ['  the same run without a judge: runner CPU per case-evaluation', ms(alone.cpuPerCase), ''],
        ['judge process start (spawn → first model request)', ms(judgeStart.startMs), ''],
        ['  bare `node -e 0` for comparison', ms(judgeStart.nodeMs), ''],
        [
          '  as a run pays it: started during generation, settings sent → first model request',
          ms(judgeStart.warmMs),
          '',
        ],
        ['  whole judge run for one output, spawn → exit', ms(judgeStart.wholeMs), ''],
        [`judging phase per evaluation (${cases} outputs, sandbox to scores)`, ms(judging), ''],
        ['  beyond the judge start a run waits for, per case-evaluation', ms(judgeBeyondStart), ''],
        [
          'whole run',
          `${ms(withJudge.wallMs)} for ${withJudge.evaluations} evaluations × ${cases} cases (without a judge: ${ms(alone.wallMs)})`,
          '',
        ],
        [
          'iterations (the first run)',
          [...withJudge.statuses].map(([status, n]) => `${n} ${status}`).join(', '),
          '',
        ],
      ];
      const findings = [];
      if (perCase > PER_CASE_TARGET_MS) {
        findings.push(
          `Missed: ${ms(perCase)} per case-evaluation outside the judge's phase, ${ms(alone.perCase)} with no judge at all. ` +
            "Two causes, measured (node --cpu-prof with the profile's clock aligned to the journal's, strace -c, and " +
            "runs with the judge's early start switched off): " +
            "(1) The judge's early start. The runner starts the built-in judge as soon as the first output is in, so " +
            'its start-up overlaps generation; with a real model that hides it behind network waits, but here ' +
            "generation is pure CPU on a 2-CPU machine, so the judge's ~130 ms of start-up competes with the runner: " +
            "starting the process blocks the runner's thread ~10 ms (fork and exec inside child_process.spawn, ~6 ms " +
            'even from a bare Node on this machine), and the file writes of generation and checks slow down while the ' +
            'other CPU is busy (a small file costs ~0.04 ms to create on an idle machine and 0.1–0.4 ms with one ' +
            'busy neighbour). In a build with the early start switched off (tried while investigating, 30 ' +
            'iterations), the phases outside judging took ~27 ms less per iteration and the judging phase ~30 ms ' +
            'more: the work moves, it does not go away. ' +
            '(2) Files. An iteration creates ~95: a cache entry per model call (20 generations, 20 judge calls, the ' +
            'mutator), 20 outputs and the review records, and (inside the judging phase) the 21 sandbox files; ' +
            'plus ~5 fsyncs for what a resume reads (~0.45 ms each here). Writing them synchronously was tried and ' +
            'was no faster. Meeting 2 ms would take fewer files: a cache that appends to one file instead of one ' +
            'file per call, which docs/design/run-records.md rules out today (every file but the journal is replaced atomically).',
        );
      }
      const markdown = [
        `A \`run\` of ${iterations} iterations on ${cases} cases (${repeats} of them, interleaved with the runs without a judge below; the figures are the median of the runs'): the in-process \`sim\` provider generates and ` +
          "judges (no latency), the built-in judge on (a subprocess per evaluation, its calls through the runner's " +
          'proxy), in a git repository; the mutator is a scripted stand-in on the fake server (0 ms) that ' +
          "proposes a new prompt every time, so every iteration evaluates a candidate. An iteration's wall time " +
          'is `iteration_started` to the next `iteration_started` in the journal (mutation, generation, checks, ' +
          'judge, scoring, records, commit). Runner time per case-evaluation = (that − the judging phase) ÷ ' +
          'cases, median over the iterations; the judge is reported apart: its process start (spawn → first ' +
          'model request, median of several, started as the runner starts it) and the rest of its phase. The ' +
          'same run is repeated with no rubric (checks only, no judge process) to show the runner alone. CPU ' +
          "is the runner process's own (`process.resourceUsage()`), the judge proxy's work included.",
        '',
        markdownTable(header, rows),
        ...(findings.length > 0 ? ['', ...findings] : []),
      ].join('\n');
      return { text: textTable(header, rows), markdown };
    } finally {
      await server.close();
    }
  },
);
