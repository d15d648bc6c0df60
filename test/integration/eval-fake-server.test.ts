/**
 * `autoresearch eval` through the real adapters: the built CLI as a subprocess, the generator
 * and grader on the Anthropic wire and the judge on the OpenAI wire, all pointed at the fake
 * LLM server on 127.0.0.1 answering with the simulated model. The judge and grader run as
 * their own processes and reach the server only through the runner's loopback proxy.
 * Needs `npm run build` first.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { EvalReport } from '../../src/eval-command/eval-report.js';
import { GRADER_SYSTEM_PROMPT } from '../../src/grader/grader-prompt.js';
import { JUDGE_SYSTEM_PROMPT } from '../../src/judge/judge-prompt.js';
import { createSimProvider } from '../../src/providers/sim/sim-provider.js';
import { RunEvent } from '../../src/run/events.js';
import {
  type FakeLlmServer,
  type FakeRequest,
  respondWith,
  startFakeLlmServer,
} from '../helpers/fake-llm-server.js';
import { findAll, readXml } from '../fixtures/eval/read-xml.js';

const ROOT = resolve(import.meta.dirname, '../..');
const MAIN = join(ROOT, 'dist/cli/main.js');
const FIXTURE = join(ROOT, 'test/fixtures/eval/support-reply');
const KEY = 'test-key-not-a-secret';
const simulated = respondWith(createSimProvider({ provider: 'sim' }));

type Role = 'generator' | 'judge' | 'grader';

function roleOf(req: FakeRequest): Role {
  if (req.system === JUDGE_SYSTEM_PROMPT) return 'judge';
  if (req.system === GRADER_SYSTEM_PROMPT) return 'grader';
  return 'generator';
}

function cleanEnv(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined || /API_KEY|BASE_URL|AUTORESEARCH_|^DEBUG$|COLOR/.test(k)) continue;
    env[k] = v;
  }
  return { ...env, NO_COLOR: '1', ...extra };
}

async function cli(args: string[], env: Record<string, string>) {
  const result = await execa(process.execPath, [MAIN, ...args], {
    cwd: work,
    env: cleanEnv(env),
    extendEnv: false,
    reject: false,
  });
  return { code: result.exitCode, stdout: result.stdout, stderr: result.stderr };
}

/** A copy of the fixture whose models call the fake server. */
function pointAtServer(name: string, server: FakeLlmServer): string {
  const dir = join(work, name);
  cpSync(FIXTURE, dir, { recursive: true });
  const file = join(dir, 'experiment.yaml');
  const config = parse(readFileSync(file, 'utf8')) as { models: Record<string, Record<string, unknown>> };
  config.models = {
    generator: { ...config.models.generator, base_url: server.anthropicBaseUrl },
    judge: { provider: 'openai', model: 'gpt-4o', temperature: 0, base_url: server.openaiBaseUrl },
    grader: { ...config.models.grader, base_url: server.anthropicBaseUrl },
  };
  writeFileSync(file, stringify(config));
  return dir;
}

function onlyRun(runsDir: string): string {
  const [id] = readdirSync(runsDir).filter((n) => !n.startsWith('.'));
  if (id === undefined) throw new Error(`no run in ${runsDir}`);
  return join(runsDir, id);
}

function events(runDir: string): RunEvent[] {
  return readFileSync(join(runDir, 'events.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => RunEvent.parse(JSON.parse(line)));
}

let work: string;
let server: FakeLlmServer | undefined;
beforeAll(() => {
  if (!existsSync(MAIN)) throw new Error('dist/ is missing: run `npm run build` first');
  work = mkdtempSync(join(tmpdir(), 'ar-eval-http-'));
});
afterEach(async () => {
  await server?.close();
  server = undefined;
});
afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('eval against the fake LLM server', () => {
  it('generates, judges through the proxy and grades over the real wire formats', async () => {
    const roles: Role[] = [];
    server = await startFakeLlmServer({
      requireKey: KEY,
      respond: (req) => {
        roles.push(roleOf(req));
        return simulated(req);
      },
    });
    const experiment = pointAtServer('wire', server);
    const runsDir = join(work, 'runs-wire');
    const { code, stdout, stderr } = await cli(['eval', experiment, '--runs-dir', runsDir, '--json'], {
      ANTHROPIC_API_KEY: KEY,
      OPENAI_API_KEY: KEY,
    });
    expect(stderr).not.toMatch(/error/i);
    expect(code).toBe(0);

    const count = (role: Role) => roles.filter((r) => r === role).length;
    expect([count('generator'), count('judge'), count('grader')]).toEqual([6, 6, 3]);
    const apis = (role: Role) =>
      new Set(server?.log.filter((_, i) => roles[i] === role).map((entry) => entry.api));
    expect(apis('generator')).toEqual(new Set(['anthropic']));
    expect(apis('judge')).toEqual(new Set(['openai']));
    expect(server.log.every((entry) => entry.status === 200 && entry.hasAuth)).toBe(true);

    const report = EvalReport.parse(JSON.parse(stdout));
    expect(report).toMatchObject({ status: 'ok', simulated: false, simulatedRoles: [] });
    expect(report.cost.byRole).toMatchObject({
      generator: { calls: 6 },
      judge: { calls: 6 },
      grader: { calls: 3 },
    });
    expect(report.cost.usd).toBeGreaterThan(0);
    expect(report.splits?.all.signals.judge).not.toBeNull();
    expect(report.splits?.all.signals.expectations).not.toBeNull();
    const runDir = onlyRun(runsDir);
    expect(report.runDir).toBe(runDir);
    expect(events(runDir).find((e) => e.type === 'run_started')).toMatchObject({
      kind: 'eval',
      simulated: [],
    });
    const judged = JSON.parse(
      readFileSync(join(runDir, 'iterations/0000/candidates/0/judge-scores.json'), 'utf8'),
    );
    expect(judged.per_output).toHaveLength(6);
    // The key is sent to the server by the runner, and never written into the record.
    const recordText = readdirSync(runDir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => readFileSync(join(entry.parentPath, entry.name), 'utf8'))
      .join('\n');
    expect(recordText).not.toContain(KEY);
  });

  it('a judge that keeps answering garbage makes the evaluation an error: exit 1, no score', async () => {
    server = await startFakeLlmServer({
      respond: (req) => (roleOf(req) === 'judge' ? 'Sure! Every criterion deserves a 5.' : simulated(req)),
    });
    const experiment = pointAtServer('bad-judge', server);
    const runsDir = join(work, 'runs-bad-judge');
    const junit = join(work, 'bad-judge.xml');
    const { code, stdout, stderr } = await cli(
      ['eval', experiment, '--runs-dir', runsDir, '--junit', junit, '--fail-under', '0'],
      {
        ANTHROPIC_API_KEY: KEY,
      },
    );
    expect(code).toBe(1);
    expect(stderr).toMatch(/error: the evaluation failed \(judge_error\): \S/);
    expect(stdout).toMatch(/^Error +judge_error: /m);
    expect(stdout).not.toContain('Scores');
    const journal = events(onlyRun(runsDir));
    expect(journal.some((e) => e.type === 'candidate_evaluated')).toBe(false);
    expect(journal.find((e) => e.type === 'iteration_finished')).toMatchObject({
      status: 'error',
      errorKind: 'judge_error',
      train: null,
    });
    expect(journal.at(-1)).toMatchObject({ type: 'run_stopped', reason: 'errors' });
    const error = findAll(readXml(readFileSync(junit, 'utf8')), 'error')[0];
    expect(error?.attributes.type).toBe('judge_error');
  });

  it('a rejected key stops the evaluation with exit 1, naming the variable', async () => {
    server = await startFakeLlmServer({ requireKey: KEY, respond: simulated });
    const experiment = pointAtServer('bad-key', server);
    const runsDir = join(work, 'runs-bad-key');
    const { code, stderr } = await cli(['eval', experiment, '--runs-dir', runsDir], {
      ANTHROPIC_API_KEY: 'wrong-key',
    });
    expect(code).toBe(1);
    expect(stderr).toContain('ANTHROPIC_API_KEY was rejected (401)');
    expect(stderr).not.toContain('wrong-key');
    expect(events(onlyRun(runsDir)).at(-1)).toMatchObject({ type: 'run_stopped', reason: 'auth' });
  });
});
