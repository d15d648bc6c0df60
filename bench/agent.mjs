#!/usr/bin/env node
/**
 * 10. Agent cases: what the runner adds to one agent case, and how agent cases run side by side.
 * On a 50-file, 1 MB fixture, each case goes through the product's one path for an agent case
 * (dist/agent/agent-case.js runAgentCase: a fresh workspace copied from the fixture, the agent,
 * the capture against the start, the record written, the workspace removed).
 *
 * - Runner time per case: with an agent that does nothing and returns at once, the whole case is
 *   the runner's (median over the cases); beside it the same with the simulated agent, which also
 *   reads the files and writes one. Target: <= 300 ms.
 * - Parallel efficiency: 8 cases at once against a fake agent that waits a fixed latency, against
 *   one case alone: one case's wall time / the 8 cases' wall time. Target: >= 0.9.
 * - The real CLIs' own start-up (`--version`, the pinned installs when present), reported only.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { cachedCli } from '../test/helpers/pinned-clis.js';
import { startFakeLlmServer } from '../test/helpers/fake-llm-server.js';
import { runBenchmark } from './lib/harness.mjs';
import { distModule } from './lib/paths.mjs';
import { median, ms, ratio, verdict } from './lib/stats.mjs';
import { markdownTable, textTable } from './lib/table.mjs';

const PER_CASE_TARGET_MS = 300;
const EFFICIENCY_TARGET = 0.9;
const PARALLEL = 8;

/** `files` files of `bytes` in all, in a few folders, like a small project. */
function writeFixture(dir, files, bytes) {
  const each = Math.floor(bytes / files);
  for (let i = 0; i < files; i++) {
    const folder = join(dir, `part-${i % 5}`);
    mkdirSync(folder, { recursive: true });
    writeFileSync(
      join(folder, `note-${i}.md`),
      `${`line ${i} of the notes, with some words in it. `.repeat(each / 48)}\n`,
    );
  }
}

async function loadProduct() {
  const { runAgentCase } = await import(distModule('agent/agent-case.js'));
  const { runSimAgent } = await import(distModule('agent/sim-agent.js'));
  const { runCliAgent } = await import(distModule('agent/cli/run-cli-agent.js'));
  return { runAgentCase, runSimAgent, runCliAgent };
}

const idle = async () => ({
  endReason: 'done',
  finalMessage: 'ok',
  transcript: [],
  turns: 1,
  durationMs: 0,
  usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
});

const waiting = (latencyMs) => async (request) => {
  await new Promise((resolve) => setTimeout(resolve, latencyMs));
  writeFileSync(join(request.workspace, 'OUT.md'), 'done\n');
  return { ...(await idle()), durationMs: latencyMs };
};

async function runCase(product, scratch, fixture, run, index, cli = {}) {
  const started = performance.now();
  await product.runAgentCase(
    {
      agent: cli.agent ?? 'sim',
      ...(cli.binary === undefined ? {} : { binary: cli.binary }),
      target: {
        place: 'skill',
        name: 'notes',
        task: 'Summarise the notes into OUT.md.',
        fixtures: fixture,
        git: false,
        limits: { maxTurns: 60, timeoutMs: 60_000 },
      },
      prompt: 'Always write the result to `OUT.md`.',
      testCase: {
        id: `case-${index}`,
        vars: {},
        checks: [],
        expectations: [],
        split: 'train',
        source: { file: 'x' },
      },
      sample: 0,
      sampleIndex: 0,
      recordDir: join(scratch, 'records', String(index)),
      tmpRoot: join(scratch, 'tmp'),
    },
    { run, env: cli.env ?? {}, isolation: cli.isolation ?? 'process' },
  );
  return performance.now() - started;
}

function cliStartup(name) {
  const path = cachedCli(name);
  if (path === undefined)
    return { name, ms: NaN, note: 'not installed (node test/helpers/pinned-clis.js installs it)' };
  const times = [];
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    try {
      execFileSync(path, ['--version'], { stdio: 'ignore', timeout: 60_000 });
    } catch {
      return { name, ms: NaN, note: '`--version` failed' };
    }
    times.push(performance.now() - started);
  }
  return { name, ms: median(times), note: '`--version`, median of 3' };
}

await runBenchmark(
  { key: 'agent', script: 'bench/agent.mjs', title: '10. Agent cases' },
  async ({ smoke }) => {
    const product = await loadProduct();
    const scratch = mkdtempSync(join(tmpdir(), 'bench-agent-'));
    try {
      const files = smoke ? 10 : 50;
      const bytes = smoke ? 100_000 : 1_000_000;
      const fixture = join(scratch, 'fixture');
      writeFixture(fixture, files, bytes);
      const rounds = smoke ? 3 : 20;
      let index = 0;
      const idleTimes = [];
      const simTimes = [];
      for (let i = 0; i < rounds; i++) {
        idleTimes.push(await runCase(product, scratch, fixture, idle, index++));
        simTimes.push(await runCase(product, scratch, fixture, product.runSimAgent, index++));
      }
      // A real agent case takes tens of seconds; 1 s makes the runner's own share count for more.
      const latencies = smoke ? [100] : [1000, 10_000];
      const efficiencies = [];
      for (const latency of latencies) {
        const alone = [];
        const together = [];
        for (let i = 0; i < (smoke ? 1 : 3); i++) {
          alone.push(await runCase(product, scratch, fixture, waiting(latency), index++));
          const started = performance.now();
          await Promise.all(
            Array.from({ length: PARALLEL }, () =>
              runCase(product, scratch, fixture, waiting(latency), index++),
            ),
          );
          together.push(performance.now() - started);
        }
        efficiencies.push({ latency, efficiency: median(alone) / median(together) });
      }
      const perCase = median(idleTimes);
      // The whole case with the real Claude Code in the sandbox, its model answering at once: the
      // runner's share beside the CLI's own (sandbox, proxy, workspace, capture, the CLI starting).
      const claude = cachedCli('claude');
      let claudeCase = Number.NaN;
      if (claude !== undefined) {
        const server = await startFakeLlmServer({ latencyMs: 0, respond: () => 'Done.' });
        try {
          const env = {
            PATH: process.env.PATH,
            HOME: join(scratch, 'home'),
            ANTHROPIC_API_KEY: 'bench-key',
            ANTHROPIC_BASE_URL: server.url,
          };
          mkdirSync(env.HOME, { recursive: true });
          const times = [];
          for (let i = 0; i < (smoke ? 1 : 5); i++)
            times.push(
              await runCase(product, scratch, fixture, product.runCliAgent, index++, {
                agent: 'claude',
                binary: claude,
                env,
                isolation: 'os',
              }),
            );
          claudeCase = median(times);
        } finally {
          await server.close();
        }
      }
      const clis = [cliStartup('claude'), cliStartup('codex')];
      const header = ['what', 'figure', 'target'];
      const rows = [
        [
          `runner time per agent case (${files} files, ${bytes / 1e6} MB fixture, agent returns at once)`,
          ms(perCase),
          `<= ${PER_CASE_TARGET_MS} ms: ${verdict(perCase <= PER_CASE_TARGET_MS)}`,
        ],
        [
          'the same case with the simulated agent (reads every file, writes one)',
          ms(median(simTimes)),
          'reported',
        ],
        [
          'the same case with the real Claude Code in the sandbox, its model answering at once',
          ms(claudeCase),
          'reported',
        ],
        ...efficiencies.map(({ latency, efficiency }) => [
          `${PARALLEL} cases at once, fake agent ${ms(latency)}: efficiency`,
          ratio(efficiency),
          `>= ${EFFICIENCY_TARGET}: ${verdict(efficiency >= EFFICIENCY_TARGET)}`,
        ]),
        ...clis.map((c) => [`${c.name} start-up (${c.note})`, ms(c.ms), 'reported']),
      ];
      const markdown = [
        'What the runner adds to one agent case — the workspace copied from the fixture, the capture',
        'of what changed, the record written, the workspace removed — through the one path every agent',
        'case takes (`src/agent/agent-case.ts`), with an agent that returns at once; then 8 cases side by',
        'side against a fake agent with a fixed latency, 1 s and 10 s (a real agent case takes tens of',
        "seconds). Efficiency is one case's wall time over the 8 cases' wall time: what keeps it below 1",
        "is the runner's own work per case (copying and hashing the fixture, the capture), for which the",
        '8 cases share two cores. Beside it, a whole case with the real Claude Code in the sandbox (its',
        'model answering at once from the fake server): the sandbox, the proxy and the CLI starting and',
        "ending, paid once per case; and the CLIs' `--version`, which starts no session.",
        '',
        markdownTable(header, rows),
      ].join('\n');
      return { text: textTable(header, rows), markdown };
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  },
);
