#!/usr/bin/env node
/**
 * 3. Against promptfoo: the same 50 cases, the same five deterministic assertions, the same
 * fake LLM server (OpenAI Chat Completions, 0 ms and 100 ms per call), the same concurrency:
 * `autoresearch eval` vs `promptfoo eval` (0.121.20, from bench/.peers/; `--install` installs
 * it first). Wall time and peak memory summed over each tool's whole process tree, runs
 * interleaved; ratios of the medians. Every assertion's verdict is compared case by case.
 * Targets: <= 0.5 of promptfoo's wall time and <= 0.5 of its peak memory, identical verdicts.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { cleanEnv, FAKE_KEY_ENV, newRunDir, runDirs } from './lib/cli.mjs';
import { startFakeLlmServer } from '../test/helpers/fake-llm-server.js';
import { runBenchmark } from './lib/harness.mjs';
import { createSimResponder } from './lib/sim-responder.mjs';
import { hasGnuTime, runMeasured } from './lib/measure-process.mjs';
import { CLI, DIST } from './lib/paths.mjs';
import { benchCases, createProject, fakeServerModels } from './lib/project.mjs';
import {
  installedPromptfoo,
  installPromptfoo,
  PROMPTFOO_ENTRY,
  PROMPTFOO_VERSION,
  promptfooEnv,
} from './lib/promptfoo.mjs';
import { markdownTable, textTable } from './lib/table.mjs';
import { median, mib, ms, ratio, verdict } from './lib/stats.mjs';

const TARGET = 0.5;
const CONCURRENCY = 8;
const PROMPT = 'Write a short cold email about {{topic}} for {{audience}}. Start with a subject line.';

/**
 * Five assertions both tools spell and mean the same way (docs/design/checks.md borrows promptfoo's
 * names).
 */
const ASSERTIONS = [
  { type: 'starts-with', value: 'Subject:' },
  { type: 'not-contains', value: '[' },
  { type: 'not-icontains-any', value: ['synergy', 'leverage', 'circle back'] },
  { type: 'regex', value: '\\?\\s*$' },
  { type: 'icontains-any', value: ['call', 'demo', 'chat'] },
];

function promptfooConfig(baseUrl, cases) {
  return {
    description: 'autoresearch benchmark',
    prompts: [PROMPT],
    providers: [
      {
        id: 'openai:chat:gpt-4o-mini',
        config: { apiBaseUrl: baseUrl, apiKey: 'bench-not-a-key', temperature: 0.7, max_tokens: 800 },
      },
    ],
    defaultTest: { assert: ASSERTIONS },
    tests: cases.map((c) => ({ description: c.id, vars: c.vars })),
  };
}

/** autoresearch's verdicts: `<case>#<assertion index>` → pass, from the run's checks.json. */
function ourVerdicts(runDir) {
  const file = join(runDir, 'iterations', '0000', 'candidates', '0', 'checks.json');
  const verdicts = new Map();
  for (const result of JSON.parse(readFileSync(file, 'utf8')).results) {
    result.outcomes.forEach((outcome, i) => {
      verdicts.set(`${result.caseId}#${i}`, outcome.pass);
    });
  }
  return verdicts;
}

function ourOutput(runDir, caseId) {
  return readFileSync(
    join(runDir, 'iterations', '0000', 'candidates', '0', 'outputs', `${caseId}.0.txt`),
    'utf8',
  );
}

/** promptfoo's verdicts from its JSON output, and each case's output text. */
function theirVerdicts(outputFile) {
  const json = JSON.parse(readFileSync(outputFile, 'utf8'));
  const verdicts = new Map();
  const outputs = new Map();
  for (const result of json.results.results) {
    const id = result.testCase?.description ?? result.description;
    outputs.set(id, result.response?.output ?? '');
    (result.gradingResult?.componentResults ?? []).forEach((component, i) => {
      verdicts.set(`${id}#${i}`, component.pass);
    });
  }
  return { verdicts, outputs };
}

function compareVerdicts(ours, theirs, runDir, theirOutputs) {
  const disagreements = [];
  for (const [key, pass] of ours) {
    if (theirs.get(key) === pass) continue;
    const [caseId, index] = key.split('#');
    const sameOutput = ourOutput(runDir, caseId) === theirOutputs.get(caseId);
    disagreements.push({
      caseId,
      assertion: ASSERTIONS[Number(index)],
      ours: pass,
      theirs: theirs.get(key),
      sameOutput,
    });
  }
  const missing = [...theirs.keys()].filter((key) => !ours.has(key));
  return { disagreements, compared: ours.size, missing };
}

/** Resident memory of a bare Node process and of one that has loaded the eval command (KiB). */
async function measureStartingMemory() {
  const probe = (code) =>
    new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ['--input-type=module', '-e', code], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let out = '';
      child.stdout.on('data', (chunk) => {
        out += chunk;
      });
      child.on('error', reject);
      child.on('close', () => resolve(Number(out.trim())));
    });
  const print = 'process.stdout.write(String(process.memoryUsage().rss / 1024));';
  const evalModule = pathToFileURL(join(DIST, 'cli', 'commands', 'eval.js')).href;
  return {
    bareKib: await probe(print),
    loadedKib: await probe(
      `await import(${JSON.stringify(evalModule)}); try { await fetch('http://127.0.0.1:9/'); } catch {} ${print}`,
    ),
  };
}

await runBenchmark(
  { key: 'vs-promptfoo', script: 'bench/vs-promptfoo.mjs', title: '3. Against promptfoo' },
  async ({ smoke, install }) => {
    if (install && installedPromptfoo() !== PROMPTFOO_VERSION) await installPromptfoo();
    const version = installedPromptfoo();
    if (version === undefined) {
      const text =
        `skipped: promptfoo is not installed in bench/.peers/ (run \`node bench/vs-promptfoo.mjs --install\` ` +
        'or `npm run bench -- --with-promptfoo`); BENCHMARKS.md keeps its previous figures.';
      return { text };
    }
    const cases = smoke ? 4 : 50;
    const runs = smoke ? 1 : 3;
    const latencies = smoke ? [0] : [0, 100];
    const server = await startFakeLlmServer({ latencyMs: 0, respond: await createSimResponder() });
    const project = createProject({
      cases,
      models: { generator: { ...fakeServerModels(server.openaiBaseUrl, 'openai').generator } },
      checks: ASSERTIONS,
      concurrency: CONCURRENCY,
    });
    writeFileSync(join(project.experimentDir, 'prompt.md'), PROMPT);
    const peerDir = mkdtempSync(join(tmpdir(), 'bench-promptfoo-'));
    const configDir = join(peerDir, 'config');
    mkdirSync(configDir);
    const configFile = join(peerDir, 'promptfooconfig.json');
    writeFileSync(
      configFile,
      JSON.stringify(promptfooConfig(server.openaiBaseUrl, benchCases(cases)), null, 2),
    );
    const outputFile = join(peerDir, 'results.json');
    const tools = {
      autoresearch: {
        argv: [process.execPath, CLI, 'eval', 'bench', '--concurrency', String(CONCURRENCY)],
        cwd: project.dir,
        env: cleanEnv(FAKE_KEY_ENV),
        codes: [0],
      },
      promptfoo: {
        argv: [
          process.execPath,
          PROMPTFOO_ENTRY,
          'eval',
          '-c',
          configFile,
          '--no-cache',
          '--no-write',
          '--no-progress-bar',
          '--no-table',
          '-j',
          String(CONCURRENCY),
          '-o',
          outputFile,
        ],
        cwd: peerDir,
        env: promptfooEnv(cleanEnv(), configDir),
        // promptfoo exits 100 when some assertion failed.
        codes: [0, 100],
      },
    };
    try {
      const figures = [];
      const verdictChecks = [];
      for (const latency of latencies) {
        server.configure({ latencyMs: latency });
        const samples = { autoresearch: [], promptfoo: [] };
        const requests = { autoresearch: [], promptfoo: [] };
        for (let run = 0; run < runs; run += 1) {
          // Alternate who goes first, so neither always runs on a warmer machine.
          const order = run % 2 === 0 ? ['promptfoo', 'autoresearch'] : ['autoresearch', 'promptfoo'];
          for (const name of order) {
            const tool = tools[name];
            server.reset();
            rmSync(outputFile, { force: true });
            const before = runDirs(project.dir);
            const result = await runMeasured(tool.argv, { cwd: tool.cwd, env: tool.env });
            if (!tool.codes.includes(result.code)) {
              throw new Error(
                `${name} exited ${result.code}:\n${(result.stdout + result.stderr).slice(-3000)}`,
              );
            }
            if (server.log.length !== cases) {
              throw new Error(`${name} made ${server.log.length} model calls for ${cases} cases`);
            }
            samples[name].push(result);
            if (name === 'autoresearch') tools.autoresearch.lastRunDir = newRunDir(project.dir, before);
            requests[name] = server.log.map((e) => e.digest).sort();
            if (name === 'promptfoo' && run === 0) tools.promptfoo.lastResults = theirVerdicts(outputFile);
          }
          if (run === 0) {
            const runDir = tools.autoresearch.lastRunDir;
            const theirs = tools.promptfoo.lastResults;
            verdictChecks.push({
              latency,
              sameRequests: JSON.stringify(requests.autoresearch) === JSON.stringify(requests.promptfoo),
              ...compareVerdicts(ourVerdicts(runDir), theirs.verdicts, runDir, theirs.outputs),
            });
          }
        }
        const pick = (name, key) => median(samples[name].map((s) => s[key]));
        const row = (name) => ({
          wall: pick(name, 'wallMs'),
          memory: pick(name, 'peakTreeKib'),
          largest: pick(name, 'largestProcessKib'),
          cpu: pick(name, 'cpuMs'),
        });
        figures.push({ latency, ours: row('autoresearch'), theirs: row('promptfoo') });
      }

      const header = [
        'latency',
        'tool',
        'median wall',
        'peak memory (tree)',
        'largest process',
        'CPU (tree)',
        'wall ratio',
        'memory ratio',
        'target',
      ];
      const rows = figures.flatMap(({ latency, ours, theirs }) => {
        const wallRatio = ours.wall / theirs.wall;
        const memoryRatio = ours.memory / theirs.memory;
        return [
          [
            `${latency} ms`,
            `promptfoo ${version}`,
            ms(theirs.wall),
            mib(theirs.memory),
            mib(theirs.largest),
            ms(theirs.cpu),
            '',
            '',
            '',
          ],
          [
            `${latency} ms`,
            'autoresearch',
            ms(ours.wall),
            mib(ours.memory),
            mib(ours.largest),
            ms(ours.cpu),
            ratio(wallRatio),
            ratio(memoryRatio),
            `<= ${TARGET}: wall ${verdict(wallRatio <= TARGET)}, memory ${verdict(memoryRatio <= TARGET)}`,
          ],
        ];
      });
      const findings = verdictChecks.map((check) => {
        const head =
          `At ${check.latency} ms: ${check.compared} verdicts compared (${cases} cases × ${ASSERTIONS.length} assertions), ` +
          `${check.disagreements.length} disagreements; both tools sent ${check.sameRequests ? 'identical' : 'DIFFERENT'} requests.`;
        const lines = check.disagreements.map(
          (d) =>
            `  - ${d.caseId} ${d.assertion.type} ${JSON.stringify(d.assertion.value)}: autoresearch ${d.ours ? 'pass' : 'fail'}, ` +
            `promptfoo ${d.theirs === undefined ? 'no verdict' : d.theirs ? 'pass' : 'fail'} ` +
            `(${d.sameOutput ? 'same output text' : 'different output text'})`,
        );
        return [head, ...lines].join('\n');
      });
      const memoryMissed = figures.some(({ ours, theirs }) => ours.memory / theirs.memory > TARGET);
      if (memoryMissed) {
        const floor = await measureStartingMemory();
        const peak = Math.max(...figures.map((f) => f.ours.memory));
        findings.push(
          `Memory missed: of autoresearch's ${mib(peak)} peak, a bare Node process holds ${mib(floor.bareKib)} and ` +
            `loading the eval command's modules brings it to ${mib(floor.loadedKib)} (zod, yaml, ajv, the checks, ` +
            `fetch); the evaluation itself adds the rest, mostly room V8 reserves for its heap. promptfoo's ` +
            `${mib(Math.max(...figures.map((f) => f.theirs.memory)))} is a single process too.`,
        );
      }
      const disagreeing = verdictChecks.some((c) => c.disagreements.length > 0 || c.missing.length > 0);
      const markdown = [
        `${cases} cases, the same five deterministic assertions (${ASSERTIONS.map((a) => `\`${a.type}\``).join(', ')}), ` +
          `the same prompt, the same fake server (OpenAI Chat Completions; replies from the simulated model, so ` +
          `the same request gets the same text), concurrency ${CONCURRENCY} for both. ` +
          `\`autoresearch eval bench\` (which also writes its run record) against \`promptfoo eval --no-cache ` +
          '--no-write --no-progress-bar --no-table -o results.json` (telemetry, update checks and sharing off ' +
          `through its environment variables). ${runs} runs per tool and latency, interleaved, alternating who ` +
          'goes first; medians. Memory is the resident set summed over the whole process tree, sampled from ' +
          `/proc every 25 ms${hasGnuTime() ? '; "largest process" and CPU come from GNU time' : ''}.`,
        '',
        markdownTable(header, rows),
        '',
        `Verdicts${disagreeing ? ' (DISAGREEMENTS are bugs to investigate)' : ''}:`,
        '',
        ...findings,
      ].join('\n');
      const text = [textTable(header, rows), '', ...findings].join('\n');
      return { text, markdown };
    } finally {
      project.remove();
      rmSync(peerDir, { recursive: true, force: true });
      await server.close();
    }
  },
);
