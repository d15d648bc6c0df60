#!/usr/bin/env node
/**
 * 1. Concurrency efficiency: `autoresearch eval` of 48 cases with the judge on, against the
 * fake LLM server at a fixed 200 ms per call, at concurrency 1, 4, 8 and 16 (interleaved,
 * several runs each). Ideal = per stage, calls / concurrency × latency (generation, then the
 * judge's calls), plus one judge process start (measured here too). Measured = the
 * evaluation as journaled, iteration_started → candidate_evaluated. Target: >= 0.95 at 8, 16.
 */
import { performance } from 'node:perf_hooks';
import {
  cleanEnv,
  eventTime,
  expectExit,
  FAKE_KEY_ENV,
  newRunDir,
  readEvents,
  runCli,
  runDirs,
} from './lib/cli.mjs';
import { startFakeLlmServer } from './lib/fake-llm-server.mjs';
import { runBenchmark } from './lib/harness.mjs';
import { measureJudgeStart } from './lib/judge-start.mjs';
import { createProject, fakeServerModels } from './lib/project.mjs';
import { markdownTable, textTable } from './lib/table.mjs';
import { median, ms, ratio, verdict } from './lib/stats.mjs';

const TARGET = 0.95;
const TARGET_LEVELS = [8, 16];

/** Epoch milliseconds of a fake-server timestamp (performance.now() in this process). */
function epoch(performanceMs) {
  return performance.timeOrigin + performanceMs;
}

/** One eval: the journaled span and, from the server log, where the time went. */
async function measureOnce(project, server, concurrency, cases) {
  server.reset();
  const before = runDirs(project.dir);
  const result = await runCli(['eval', 'bench', '--concurrency', String(concurrency)], {
    cwd: project.dir,
    env: cleanEnv(FAKE_KEY_ENV),
  });
  expectExit(result, [0], `eval at concurrency ${concurrency}`);
  const events = readEvents(newRunDir(project.dir, before));
  const started = events.find((e) => e.type === 'iteration_started');
  const evaluated = events.find((e) => e.type === 'candidate_evaluated');
  if (!started || !evaluated) throw new Error('the eval journal has no evaluation');
  const log = [...server.log].sort((a, b) => a.receivedAt - b.receivedAt);
  if (log.length !== 2 * cases)
    throw new Error(`expected ${2 * cases} model calls, the server saw ${log.length}`);
  // The stages run one after the other: every generation, then every judge call.
  const generations = log.slice(0, cases);
  const judgeCalls = log.slice(cases);
  const lastGeneration = Math.max(...generations.map((e) => e.finishedAt));
  const lastJudgeCall = Math.max(...judgeCalls.map((e) => e.finishedAt));
  return {
    measured: eventTime(evaluated) - eventTime(started),
    generation: lastGeneration - generations[0].receivedAt,
    between: judgeCalls[0].receivedAt - lastGeneration,
    judging: lastJudgeCall - judgeCalls[0].receivedAt,
    before: epoch(generations[0].receivedAt) - eventTime(started),
    after: eventTime(evaluated) - epoch(lastJudgeCall),
    process: result.wallMs,
    maxInFlight: server.maxInFlight,
  };
}

await runBenchmark(
  { key: 'concurrency', script: 'bench/concurrency.mjs', title: '1. Concurrency efficiency' },
  async ({ smoke }) => {
    const latency = smoke ? 20 : 200;
    const cases = smoke ? 6 : 48;
    const levels = smoke ? [1, 4] : [1, 4, 8, 16];
    const runs = smoke ? 1 : 3;
    const server = await startFakeLlmServer({ latencyMs: latency });
    const project = createProject({
      cases,
      rubric: true,
      models: fakeServerModels(server.anthropicBaseUrl),
    });
    try {
      const judgeStart = await measureJudgeStart(server, { runs: smoke ? 1 : 5 });
      const samples = new Map(levels.map((level) => [level, []]));
      for (let run = 0; run < runs; run += 1) {
        for (const level of levels) samples.get(level).push(await measureOnce(project, server, level, cases));
      }
      const rows = levels.map((level) => {
        const list = samples.get(level);
        const pick = (key) => median(list.map((s) => s[key]));
        const perStage = Math.ceil(cases / level) * latency;
        const ideal = 2 * perStage + judgeStart.startMs;
        const measured = pick('measured');
        return {
          level,
          ideal,
          measured,
          efficiency: ideal / measured,
          generation: pick('generation'),
          between: pick('between'),
          judging: pick('judging'),
          edges: pick('before') + pick('after'),
          perStage,
          process: pick('process'),
          maxInFlight: Math.max(...list.map((s) => s.maxInFlight)),
        };
      });
      const header = [
        'concurrency',
        'ideal',
        'measured',
        'efficiency',
        'generation (ideal)',
        'checks + judge start',
        'judge calls (ideal)',
        'before + after',
        'max in flight',
        'whole eval process',
        'target',
      ];
      const cells = rows.map((r) => [
        r.level,
        ms(r.ideal),
        ms(r.measured),
        ratio(r.efficiency, 3),
        `${ms(r.generation)} (${ms(r.perStage)})`,
        ms(r.between),
        `${ms(r.judging)} (${ms(r.perStage)})`,
        ms(r.edges),
        r.maxInFlight,
        ms(r.process),
        TARGET_LEVELS.includes(r.level) ? `>= ${TARGET}: ${verdict(r.efficiency >= TARGET)}` : '',
      ]);
      const missed = rows.filter((r) => TARGET_LEVELS.includes(r.level) && r.efficiency < TARGET);
      const findings = [
        `Judge process start (spawn to its first model request, median of ${judgeStart.samples.starts.length}): ` +
          `${ms(judgeStart.startMs)}; a bare \`node -e 0\` takes ${ms(judgeStart.nodeMs)} on this machine at this load. ` +
          'The ideal counts a whole judge start, as the method says; the runner starts the built-in judge while it ' +
          `still generates, so it waits only for the settings-to-first-request part (${ms(judgeStart.warmMs)}).`,
      ];
      for (const r of missed) {
        const lost = r.measured - r.ideal;
        const parts = [
          ['generation beyond its ideal', r.generation - r.perStage],
          ['checks, sandbox and judge start beyond the measured judge start', r.between - judgeStart.startMs],
          ['judge calls beyond their ideal', r.judging - r.perStage],
          [
            'before the first call (prompt file, cache lookups) and after the last (judge exit, scoring, records, two fsyncs)',
            r.edges,
          ],
        ]
          .filter(([, value]) => value > 0)
          .sort((a, b) => b[1] - a[1])
          .map(([what, value]) => `${what} ${ms(value)}`);
        const gained = judgeStart.startMs - r.between;
        const overlap =
          gained > 0
            ? `Against that, starting the judge during generation won back ${ms(gained)} of the whole ` +
              'judge start the ideal counts. '
            : '';
        findings.push(
          `Missed at ${r.level}: ${ms(lost)} over the ideal — ${parts.join('; ')}. ${overlap}` +
            'A stage beyond its ideal is the runner handling a wave of responses that arrive together on ' +
            'one thread (parse, cache entry, the next request) before the next wave can leave; the edges ' +
            'are a fixed cost per evaluation. With the calls this short (a whole stage is three latencies ' +
            'at 16), those fixed costs weigh most at high concurrency. Profiled (runner and judge, node ' +
            '--cpu-prof aligned to the journal): the early judge is spawned as the first responses arrive, and ' +
            "spawning blocks the runner's thread ~10–15 ms (fork and exec) while that wave waits; spawning it " +
            'before the first request delays the first wave as much (tried: +45 ms before the first call), and ' +
            'spawning it just after the first wave has left was within the noise of these runs. Between the ' +
            'stages, the runner writes the 49 sandbox files and the judge, given its settings, reads them and ' +
            'builds its first 16 requests before any leaves (~45 ms to its first request).',
        );
      }
      const markdown = [
        `\`autoresearch eval\` of ${cases} cases, judge on (the built-in judge in its sandbox, its calls through the ` +
          `runner's proxy), against the fake LLM server at ${latency} ms per call; ${runs} runs per level, interleaved; ` +
          'medians. Ideal = 2 stages × ⌈cases ÷ concurrency⌉ × latency + one judge process start. Measured = ' +
          '`iteration_started` → `candidate_evaluated` in the journal. The stage columns come from the ' +
          "server's log (same clock as the journal): generation and judge-call spans, the gap between them, " +
          'and the time before the first call and after the last one.',
        '',
        markdownTable(header, cells),
        '',
        ...findings,
      ].join('\n');
      return { text: textTable(header, cells), markdown };
    } finally {
      project.remove();
      await server.close();
    }
  },
);
