/**
 * The judge process start cost: the built-in judge started the way the runner starts it
 * (`node dist/cli/main.js judge outputs --rubric rubric.md`, model settings on stdin, an
 * Anthropic base URL and key in the environment, HOME an empty folder), timed from spawn to
 * its first model request reaching the fake server — Node's own start, loading the CLI and
 * the judge, reading settings, rubric and outputs. Beside it, with the same clock, a bare
 * `node -e 0` (the part no code of ours can remove) and the whole judge run.
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { CLI, REPO } from './paths.mjs';
import { median } from './stats.mjs';

// The judge as the runner starts it (src/sandbox/plan-program.ts): the CLI's own judge command.
const JUDGE_ARGV = [process.execPath, CLI, 'judge', 'outputs', '--rubric', 'rubric.md'];

function run(argv, { cwd, env, input, holdInputMs = 0 }) {
  return new Promise((resolve, reject) => {
    const startedAt = performance.now();
    let releasedAt = startedAt;
    const child = spawn(argv[0], argv.slice(1), { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stdout.resume();
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr, startedAt, releasedAt, endedAt: performance.now() }));
    const release = () => {
      releasedAt = performance.now();
      child.stdin.end(input ?? '');
    };
    if (holdInputMs > 0) setTimeout(release, holdInputMs);
    else release();
  });
}

/** A sandbox like the runner's: outputs/output_NN.txt and rubric.md, plus an empty HOME. */
function makeSandbox(outputs) {
  const root = mkdtempSync(join(tmpdir(), 'bench-judge-'));
  const dir = join(root, 'sandbox');
  const home = join(root, 'home');
  mkdirSync(join(dir, 'outputs'), { recursive: true });
  mkdirSync(home);
  cpSync(join(REPO, 'rubrics', 'cold-email.md'), join(dir, 'rubric.md'));
  for (let i = 0; i < outputs; i += 1) {
    writeFileSync(
      join(dir, 'outputs', `output_${String(i).padStart(2, '0')}.txt`),
      `Subject: a question about your week\n\nHi — one short note (#${i}). Worth a 10-minute call on Thursday?\n`,
    );
  }
  return { dir, home, remove: () => rmSync(root, { recursive: true, force: true }) };
}

/**
 * Measures `runs` judge starts against `server` (a bench fake LLM server) and `runs` bare
 * Node starts, interleaved. Resolves with medians { startMs, wholeMs, nodeMs, warmMs } and the
 * samples. `warmMs` is the start as a run pays it: the runner starts the built-in judge while
 * it still generates and hands over the settings when the outputs are ready, so what it waits
 * for is settings sent → first model request (measured here with the settings held 1 s).
 */
export async function measureJudgeStart(server, { runs, outputs = 1 }) {
  const settings = JSON.stringify({
    provider: 'anthropic',
    model: 'claude-sonnet-4-5',
    temperature: 0,
    concurrency: 64,
    max_retries: 0,
    timeout_s: 60,
  });
  const starts = [];
  const wholes = [];
  const nodes = [];
  const warms = [];
  for (let i = 0; i < runs; i += 1) {
    const sandbox = makeSandbox(outputs);
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: sandbox.home,
      ANTHROPIC_BASE_URL: server.anthropicBaseUrl,
      ANTHROPIC_API_KEY: 'bench-not-a-key',
      NO_COLOR: '1',
    };
    const before = server.log.length;
    const judged = await run(JUDGE_ARGV, {
      cwd: sandbox.dir,
      env,
      input: settings,
    });
    sandbox.remove();
    if (judged.code !== 0) throw new Error(`the judge exited ${judged.code}: ${judged.stderr.trim()}`);
    const first = server.log[before];
    if (first === undefined) throw new Error('the judge made no model request');
    starts.push(first.receivedAt - judged.startedAt);
    wholes.push(judged.endedAt - judged.startedAt);
    const bare = await run([process.execPath, '-e', '0'], { cwd: tmpdir(), env: { PATH: env.PATH } });
    nodes.push(bare.endedAt - bare.startedAt);
    const held = makeSandbox(outputs);
    const beforeWarm = server.log.length;
    const warm = await run(JUDGE_ARGV, {
      cwd: held.dir,
      env: { ...env, HOME: held.home },
      input: settings,
      holdInputMs: 1000,
    });
    held.remove();
    if (warm.code !== 0) throw new Error(`the judge exited ${warm.code}: ${warm.stderr.trim()}`);
    const firstWarm = server.log[beforeWarm];
    if (firstWarm === undefined) throw new Error('the judge made no model request');
    warms.push(firstWarm.receivedAt - warm.releasedAt);
  }
  return {
    startMs: median(starts),
    wholeMs: median(wholes),
    nodeMs: median(nodes),
    warmMs: median(warms),
    samples: { starts, wholes, nodes, warms },
  };
}
