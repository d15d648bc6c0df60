/**
 * A hostile judge program (docs/design/isolation.md) run by a stand-in runner whose environment
 * holds the user's key: it tries the runner's /proc entries, every visible process's environment,
 * `..`, /tmp, $HOME, the project, `runs/` and a TCP port on the host. Under `os` isolation it
 * finds none of them; the same judge under `process` isolation documents what that level still
 * exposes. Needs `npm run build` and a working bubblewrap (the `os` cases fail without it).
 */
import { createServer, type Server } from 'node:net';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRubric } from '../../src/experiment/rubric.js';
import type { Isolation } from '../../src/sandbox/isolation.js';
import { systemBwrapProbe } from '../../src/sandbox/isolation.js';
import { runJudge } from '../../src/judge/run-judge.js';
import { createModelPool } from '../../src/providers/model-pool.js';
import { cleanEnv, REPO_ROOT, requireBuiltCli } from '../helpers/built-cli.js';

const HOSTILE = resolve('test/fixtures/judges/hostile-judge.mjs');
const RUNNER = resolve('test/fixtures/judges/hostile-runner.mjs');
const USER_KEY = 'sk-ant-api03-HOSTILE-TEST-KEY-7c1d';
const PROMPT = 'You are Quokka, write the lighthouse-quarterly email.';
const RUN_SECRET = 'run-record-secret-0xbeef';
const HOME_SECRET = 'home-secret-0xfeed';
const OTHER_SANDBOX = 'another-evaluation-output-0xcafe';
const TCP_BANNER = 'host-service-banner';
const RUBRIC = '# Rubric\n\n## Criteria\n\n### Clarity\nIs it clear?\n';

let work: string;
let project: string;
let hostTmp: string;
let home: string;
let server: Server;
let port: number;

beforeAll(async () => {
  requireBuiltCli();
  work = await mkdtemp(join(tmpdir(), 'ar-hostile-'));
  project = join(work, 'project');
  hostTmp = join(work, 'tmp');
  home = join(work, 'home');
  await mkdir(join(project, 'runs', 'r1'), { recursive: true });
  await writeFile(join(project, 'prompt.md'), PROMPT);
  await writeFile(join(project, 'runs', 'r1', 'best.md'), RUN_SECRET);
  // Another evaluation's sandbox, as a concurrent one would leave it in the temp folder.
  await mkdir(join(hostTmp, 'autoresearch-tmp-other1', 'sbx-abc', 'ws-abc', 'outputs'), { recursive: true });
  await writeFile(
    join(hostTmp, 'autoresearch-tmp-other1', 'sbx-abc', 'ws-abc', 'outputs', 'output_00.txt'),
    OTHER_SANDBOX,
  );
  await mkdir(home);
  await writeFile(join(home, '.secret'), HOME_SECRET);
  server = createServer((socket) => socket.end(TCP_BANNER));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  port = (server.address() as { port: number }).port;
});

afterAll(async () => {
  server?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

async function runHostile(isolation: Isolation): Promise<{ found: Record<string, string>; dump: string }> {
  const rubric = parseRubric(join(project, 'rubric.md'), RUBRIC).rubric;
  const options = {
    outputs: [
      { caseId: 'c1', sample: 0, text: 'An output to judge.' },
      { caseId: 'c2', sample: 0, text: 'Another output.' },
    ],
    rubric,
    judge: {
      command: ['node', HOSTILE, `--project=${project}`, `--tmp=${hostTmp}`, `--port=${port}`],
    },
    seed: 1,
    timeoutMs: 60_000,
    attempts: 1,
    commandCwd: project,
    isolation,
  };
  const env = cleanEnv({
    ANTHROPIC_API_KEY: USER_KEY,
    AUTORESEARCH_PROMPT: PROMPT,
    HOME: home,
    TMPDIR: hostTmp,
  });
  const ran = await execa(process.execPath, [RUNNER, join(REPO_ROOT, 'dist'), JSON.stringify(options)], {
    cwd: project,
    env,
    extendEnv: false,
    reject: false,
  });
  expect(ran.exitCode, ran.stderr).toBe(0);
  const result = JSON.parse(ran.stdout) as {
    ok: boolean;
    message?: string;
    raw?: { found: Record<string, string> };
  };
  expect(result.ok, result.message).toBe(true);
  const found = result.raw?.found ?? {};
  return { found, dump: JSON.stringify(found) };
}

const bwrapProblem = systemBwrapProbe();

describe('a hostile judge', () => {
  it('under os isolation finds no key, no prompt, no other sandbox, no project file and no network', async () => {
    expect(bwrapProblem, 'bubblewrap must work here (CI installs Debian’s bubblewrap)').toBeUndefined();
    const { found, dump } = await runHostile('os');
    // It did look (the probes ran), and saw only itself and the sandbox's init.
    expect(found['parent environ']).toBeDefined();
    expect(found['pids']?.split(' ').length).toBeLessThanOrEqual(3);
    expect(dump).not.toContain(USER_KEY);
    expect(dump).not.toContain('sk-ant');
    expect(dump).not.toContain(PROMPT);
    expect(dump).not.toContain(RUN_SECRET);
    expect(dump).not.toContain(HOME_SECRET);
    expect(dump).not.toContain(OTHER_SANDBOX);
    expect(dump).not.toContain(TCP_BANNER);
    expect(found['project']).toMatch(/ERROR ENOENT/);
    expect(found['runs']).toMatch(/ERROR ENOENT/);
    expect(found['host tmp']).toMatch(/ERROR ENOENT/);
    expect(found['tcp']).toMatch(/^ERROR/);
    // `..` from its cwd is the sandbox's own root: no host path, no sibling folder.
    expect(found['..']).not.toContain(work);
    expect(found['..']).not.toContain('autoresearch-');
    // Its sandbox is gone afterwards (with the runner's temporary folder, at its exit).
    expect(await readdir(hostTmp)).toEqual(['autoresearch-tmp-other1']);
  }, 90_000);

  it('under process isolation still reads the runner’s key, the project, other sandboxes and the network', async () => {
    const { found, dump } = await runHostile('process');
    // What `process` isolation does keep out: the key is not in the judge's own environment.
    expect(found['env']).not.toContain(USER_KEY);
    // What it does not: the same user sees the runner through /proc, and every file it can.
    expect(found['parent environ']).toContain(USER_KEY);
    expect(found['parent cmdline']).toContain('hostile-runner.mjs');
    expect(dump).toContain(PROMPT);
    expect(dump).toContain(RUN_SECRET);
    expect(found['host tmp']).toContain(OTHER_SANDBOX);
    expect(found['tcp']).toBe(`CONNECTED ${TCP_BANNER}`);
    // Its own sandbox sits in a private folder: `..` shows no other sandbox and no prompt file.
    expect(found['..']).not.toContain(OTHER_SANDBOX);
    expect(found['..']).not.toContain(PROMPT);
    expect(found['home']).not.toContain(HOME_SECRET);
  }, 90_000);
});

describe('the built-in judge under os isolation', () => {
  it('reaches the runner’s model through the Unix socket and the in-sandbox relay', async () => {
    expect(bwrapProblem).toBeUndefined();
    const pool = createModelPool({ models: { judge: { provider: 'sim' } }, concurrency: 2, env: {} });
    try {
      const rubric = parseRubric(join(project, 'rubric.md'), RUBRIC).rubric;
      if (rubric === undefined) throw new Error('the rubric does not parse');
      const result = await runJudge({
        outputs: [{ caseId: 'c1', sample: 0, text: 'Subject: hello\n\nA short email?' }],
        rubric,
        judge: { provider: 'sim' },
        client: pool.client('judge'),
        seed: 1,
        timeoutMs: 60_000,
        attempts: 1,
        commandCwd: project,
        isolation: 'os',
      });
      expect(result.ok, result.ok ? '' : result.message).toBe(true);
    } finally {
      await pool.close();
    }
  }, 90_000);
});
